<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>Status</name>
    <message>
        <location filename="../ui/models/status.cpp" line="18"/>
        <source>passed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="19"/>
        <source>wrong</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="20"/>
        <source>crash</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="21"/>
        <source>timeout</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="22"/>
        <source>runtime error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="23"/>
        <source>load error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="24"/>
        <source>inputs modified</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="25"/>
        <source>compile error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="26"/>
        <source>no cases</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="27"/>
        <source>running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="28"/>
        <source>interrupted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="29"/>
        <source>error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="30"/>
        <source>cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="31"/>
        <source>stopped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="32"/>
        <source>done</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="33"/>
        <source>rejected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="34"/>
        <source>needs review</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="35"/>
        <source>proposing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="36"/>
        <source>held for approval</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="37"/>
        <source>compiling</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="38"/>
        <source>testing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="39"/>
        <source>timing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="40"/>
        <source>paused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="41"/>
        <source>starting</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kope::ui::AttemptModel</name>
    <message>
        <location filename="../ui/models/models.cpp" line="123"/>
        <source>Task</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="124"/>
        <source>Kernel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="125"/>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="126"/>
        <source>Speedup</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="127"/>
        <source>Promoted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="128"/>
        <source>Idea</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="157"/>
        <source>yes</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kope::ui::CaseModel</name>
    <message>
        <location filename="../ui/models/models.cpp" line="35"/>
        <source>Case</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="36"/>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="37"/>
        <source>Max rel. error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="38"/>
        <source>Baseline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="39"/>
        <source>Kernel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="40"/>
        <source>Speedup</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="41"/>
        <source>95% interval</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="42"/>
        <source>Memory floor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="43"/>
        <source>HAP</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="44"/>
        <source>Message</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kope::ui::CasesPane</name>
    <message>
        <location filename="../ui/views/cases_pane.cpp" line="89"/>
        <source>Output</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/cases_pane.cpp" line="90"/>
        <source>Mean rel. error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/cases_pane.cpp" line="91"/>
        <source>Max rel. error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/cases_pane.cpp" line="92"/>
        <source>Limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/cases_pane.cpp" line="93"/>
        <source>Worst at</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/cases_pane.cpp" line="94"/>
        <source>Expected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/cases_pane.cpp" line="95"/>
        <source>Got</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/cases_pane.cpp" line="99"/>
        <source>Correctness call</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/cases_pane.cpp" line="100"/>
        <source>Last timed call</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/cases_pane.cpp" line="102"/>
        <source>Baseline median</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/cases_pane.cpp" line="102"/>
        <source>kernel median</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/cases_pane.cpp" line="103"/>
        <source>speedup</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/cases_pane.cpp" line="106"/>
        <source>Runner log</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kope::ui::CompareModel</name>
    <message>
        <location filename="../ui/models/models.cpp" line="237"/>
        <source>Case</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="238"/>
        <source>A status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="239"/>
        <source>B status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="240"/>
        <source>A median</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="241"/>
        <source>B median</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="242"/>
        <source>B over A</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="243"/>
        <source>95% interval</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kope::ui::ComparePane</name>
    <message>
        <location filename="../ui/views/compare_pane.cpp" line="85"/>
        <source>Pick two versions in History (or one and the incumbent) to compare them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/compare_pane.cpp" line="86"/>
        <source>A</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/compare_pane.cpp" line="87"/>
        <source>B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/compare_pane.cpp" line="88"/>
        <location filename="../ui/views/compare_pane.cpp" line="107"/>
        <source>B over A, per case</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/compare_pane.cpp" line="91"/>
        <source>A: evaluation %1 (%2) · B: evaluation %3 (%4) · B over A: %5</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/compare_pane.cpp" line="96"/>
        <source>(different tasks)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/compare_pane.cpp" line="97"/>
        <source>A: evaluation %1, %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/compare_pane.cpp" line="98"/>
        <source>B: evaluation %1, %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/compare_pane.cpp" line="107"/>
        <source>B over A</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/compare_pane.cpp" line="108"/>
        <source>A median / B median</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kope::ui::CompilePane</name>
    <message>
        <location filename="../ui/views/compile_pane.cpp" line="42"/>
        <source>Compiling %1 ...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/compile_pane.cpp" line="89"/>
        <source>compiled (cached build, no compiler run)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/compile_pane.cpp" line="89"/>
        <source>compiled in %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/compile_pane.cpp" line="91"/>
        <source>did not compile (%1): %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kope::ui::DiagnosticModel</name>
    <message>
        <location filename="../ui/models/models.cpp" line="92"/>
        <source>File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="93"/>
        <source>Line</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="94"/>
        <source>Column</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="95"/>
        <source>Severity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="96"/>
        <source>Message</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kope::ui::DoctorDialog</name>
    <message>
        <location filename="../ui/doctor/doctor_dialog.cpp" line="68"/>
        <source>Checking this machine...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_dialog.cpp" line="96"/>
        <source>The checks failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_dialog.cpp" line="98"/>
        <source>Verdicts on this machine are trustworthy because:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_dialog.cpp" line="100"/>
        <source>Verdicts on this machine are weakened because:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_dialog.cpp" line="102"/>
        <source>(nothing found)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_dialog.cpp" line="103"/>
        <source>kope cannot give verdicts here until the failed checks are fixed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_dialog.cpp" line="108"/>
        <source>Machine check</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_dialog.cpp" line="109"/>
        <source>What this machine gives kope, as `kope doctor` reports it: each check with its verdict and what to do.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_dialog.cpp" line="111"/>
        <source>&amp;Refresh</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_dialog.cpp" line="112"/>
        <source>Close</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_dialog.cpp" line="113"/>
        <source>%1 checks run.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kope::ui::DoctorModel</name>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="25"/>
        <source>unknown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="27"/>
        <source>ok</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="28"/>
        <source>info</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="29"/>
        <source>warn</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="30"/>
        <source>fail</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="37"/>
        <source>C++ compiler</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="38"/>
        <source>Library baseline (ATen)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="39"/>
        <source>User namespaces</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="40"/>
        <source>Bubblewrap (namespaces)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="41"/>
        <source>Seccomp filter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="42"/>
        <source>Cgroups (whole-tree limits)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="43"/>
        <source>Cache sizes for the flush</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="44"/>
        <source>Timer resolution</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="45"/>
        <source>CPU frequency governor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="46"/>
        <source>Turbo / boost</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="47"/>
        <source>Isolated cores</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="48"/>
        <source>SMT (hyper-threading)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="49"/>
        <source>Load at the time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="50"/>
        <source>Devices</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="56"/>
        <source>Verdict</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="57"/>
        <source>Check</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="58"/>
        <source>Found</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="59"/>
        <source>What to do</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kope::ui::HistoryModel</name>
    <message>
        <location filename="../ui/models/models.cpp" line="167"/>
        <source>Id</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="168"/>
        <source>Task</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="169"/>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="170"/>
        <source>Speedup</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="171"/>
        <source>Started</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="172"/>
        <source>Kernel</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kope::ui::HistoryPane</name>
    <message>
        <location filename="../ui/views/history_pane.cpp" line="101"/>
        <source>Restore this version</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/history_pane.cpp" line="102"/>
        <source>Bring this kernel version and its results back into the editor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/history_pane.cpp" line="103"/>
        <source>Compare the two selected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/history_pane.cpp" line="104"/>
        <source>Compare with the incumbent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/history_pane.cpp" line="105"/>
        <source>Fork a run from here</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kope::ui::MainWindow</name>
    <message>
        <location filename="../ui/main_window.cpp" line="319"/>
        <source>Tasks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="328"/>
        <source>Task</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="322"/>
        <location filename="../ui/main_window.cpp" line="454"/>
        <source>Cases</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="325"/>
        <source>Chart</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="326"/>
        <source>History</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="329"/>
        <source>&amp;Open kernel...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="330"/>
        <source>&amp;Save kernel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="331"/>
        <source>&amp;Evaluate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="332"/>
        <source>Compile, check against the fp64 golden and time against the baseline (Ctrl+R)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="335"/>
        <source>Load</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="336"/>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="339"/>
        <source> Shipped kernels: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="340"/>
        <source> Warm-ups: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="341"/>
        <source> Timed runs: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="342"/>
        <source> Timeout (s): </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="343"/>
        <source>&amp;File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="344"/>
        <source>&amp;Kernel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="356"/>
        <location filename="../ui/main_window.cpp" line="447"/>
        <source>No evaluation yet. Write or load a kernel and press Evaluate.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="465"/>
        <source>Reference</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="477"/>
        <source>Cannot read the kernel file %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="482"/>
        <source>Opened %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="533"/>
        <source>Open kernel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="534"/>
        <source>C++ sources (*.cpp *.cc *.cxx *.c);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="61"/>
        <source>Save kernel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="57"/>
        <source>Unsaved changes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="61"/>
        <source>C++ sources (*.cpp)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="72"/>
        <source>Evaluation cancelled. It is recorded in the workspace; its results are not shown.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="74"/>
        <source>Evaluation cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="121"/>
        <source>The kernel has unsaved changes. Save them before switching to task %1?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="183"/>
        <source>The kernel has unsaved changes. Save them before the held candidate replaces them?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="187"/>
        <source>Candidate %1 is held for approval: edit it here, then Approve or Reject in the run controller.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="192"/>
        <source>The candidate went on to the loop as it stands in the editor (or was rejected); its attempt appears in the run controller.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="229"/>
        <source>The kernel has unsaved changes. Save them before opening this Case&apos;s kernel?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="231"/>
        <source>A kernel from the experience graph: evaluate it to see its results here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="320"/>
        <source>Run controller</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="321"/>
        <source>Experience graph</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="323"/>
        <source>Compile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="324"/>
        <source>Profile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="327"/>
        <source>Compare</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="333"/>
        <source>&amp;Cancel evaluation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="334"/>
        <source>Stop the running evaluation (Esc)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="337"/>
        <source>&amp;Machine check...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="338"/>
        <source>What this machine gives kope: compiler, library baseline, sandbox, timing conditions, devices (kope doctor)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="345"/>
        <source>&amp;View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="346"/>
        <source>&amp;Help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="374"/>
        <source>The kernel has unsaved changes. Save them before quitting?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="398"/>
        <source>untitled.cpp</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="400"/>
        <source>%1[*]%2 — Kope Workbench</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="426"/>
        <source>the editor has changed since this evaluation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="474"/>
        <source>The kernel has unsaved changes. Save them before opening %1?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="491"/>
        <source>The kernel has unsaved changes. Save them before loading %1?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="502"/>
        <location filename="../ui/main_window.cpp" line="509"/>
        <source>The kernel has unsaved changes. Save them before restoring evaluation %1?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="526"/>
        <source>Evaluation %1 has no report: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="528"/>
        <source>Restored evaluation %1 (kernel version %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="546"/>
        <source>Cannot write the kernel file %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="552"/>
        <source>Saved %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="581"/>
        <source>Select a task first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="586"/>
        <source>The kernel is empty: write one or load a shipped kernel.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="595"/>
        <source>Evaluating %1 on %2...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="615"/>
        <source>%1 case %2 of %3 (%4)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="640"/>
        <source>Did not compile: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="648"/>
        <source>Result: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="649"/>
        <source>, speedup %1 (geometric mean over %2 cases)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="650"/>
        <source>, score %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="651"/>
        <source>Warning: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="665"/>
        <source>Error: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="671"/>
        <source>Working...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="671"/>
        <source>Idle</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kope::ui::ProfilePane</name>
    <message>
        <location filename="../ui/views/profile_pane.cpp" line="75"/>
        <source>Device profiler counters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/profile_pane.cpp" line="81"/>
        <source>Timed samples</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/profile_pane.cpp" line="82"/>
        <source>No timed case: evaluate a kernel to see its samples.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/profile_pane.cpp" line="92"/>
        <source>seconds</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/profile_pane.cpp" line="92"/>
        <source>milliseconds</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/profile_pane.cpp" line="92"/>
        <source>nanoseconds</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/profile_pane.cpp" line="96"/>
        <source>memory-bound floor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/profile_pane.cpp" line="97"/>
        <source>Timed samples of case %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/profile_pane.cpp" line="98"/>
        <source>baseline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/profile_pane.cpp" line="98"/>
        <source>kernel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/profile_pane.cpp" line="99"/>
        <source>sample</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/profile_pane.cpp" line="92"/>
        <source>microseconds</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/profile_pane.cpp" line="101"/>
        <source>Baseline median %1, kernel median %2 over %3 samples.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/profile_pane.cpp" line="105"/>
        <source>Speedup %1, 95% interval %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/profile_pane.cpp" line="107"/>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/profile_pane.cpp" line="109"/>
        <source>Memory-bound floor %1; position against it (HAP) %2: 50% is the baseline&apos;s speed, 100% the floor.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/profile_pane.cpp" line="113"/>
        <source>No memory-bound floor was measured for this case.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kope::ui::ResultsHeader</name>
    <message>
        <location filename="../ui/views/results_header.cpp" line="61"/>
        <source>Task %1 · kernel %2 · evaluating: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/results_header.cpp" line="64"/>
        <source>No task selected.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/results_header.cpp" line="64"/>
        <source>Task %1 · no evaluation of this kernel yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/results_header.cpp" line="67"/>
        <source>Task %1 · kernel %2 (%3) · evaluation %4 · %5</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/results_header.cpp" line="72"/>
        <source>STALE: %1 — </source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kope::ui::RunController</name>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="140"/>
        <source>stopping: the running evaluation is cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="187"/>
        <source>held for approval: %1 (edit it in the editor, then Approve or Reject)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="203"/>
        <source>run %1 stopped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="203"/>
        <source>run %1 done</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="213"/>
        <source>the run failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="237"/>
        <source>The next attempt starts from evaluation %1 as the incumbent.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="245"/>
        <source>Choose at least one task to run.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="294"/>
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="310"/>
        <source>%1 case %2 of %3 (%4)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="331"/>
        <source>Tasks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="332"/>
        <source>Policy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="333"/>
        <source>offline replays the shipped kernels; type an LLM profile name to use a model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="334"/>
        <source>Memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="335"/>
        <source>Attempts per task</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="336"/>
        <source>Patience (attempts without gain)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="337"/>
        <source>Token budget (thousands)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="338"/>
        <source>Wall time (minutes)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="339"/>
        <source>Start run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="340"/>
        <source>Pause after attempt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="341"/>
        <source>Stop now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="342"/>
        <source>A hint for the next prompt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="343"/>
        <source>Send hint</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="344"/>
        <source>Hold each candidate for approval</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="345"/>
        <source>Approve</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="346"/>
        <source>Reject</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="347"/>
        <source>Pin the incumbent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="348"/>
        <source>No run yet.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kope::ui::RunModel</name>
    <message>
        <location filename="../ui/models/models.cpp" line="209"/>
        <source>Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="210"/>
        <source>Command</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="211"/>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="212"/>
        <source>Started</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="213"/>
        <source>Finished</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kope::ui::SpeedupChart</name>
    <message>
        <location filename="../ui/charts/speedup_chart.cpp" line="41"/>
        <source>Speedup over the baseline, per case</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/charts/speedup_chart.cpp" line="48"/>
        <source>speedup</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/charts/speedup_chart.cpp" line="67"/>
        <source>baseline time / kernel time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/charts/speedup_chart.cpp" line="84"/>
        <source>Speedup over the baseline, per case (%1)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kope::ui::SteeringModel</name>
    <message>
        <location filename="../ui/models/models.cpp" line="280"/>
        <source>At</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="281"/>
        <source>Act</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="282"/>
        <source>Detail</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kope::ui::TaskModel</name>
    <message>
        <location filename="../ui/models/models.cpp" line="300"/>
        <source>Task</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>

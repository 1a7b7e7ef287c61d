<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>kope::ui::MainWindow</name>
    <message>
        <location filename="../ui/main_window.cpp" line="96"/>
        <source>Loaded kernel version %1 from the workspace</source>
        <translation>已从工作区载入内核版本 %1</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="245"/>
        <source>Kope Workbench</source>
        <translation>Kope 工作台</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="246"/>
        <source>Tasks</source>
        <translation>任务</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="247"/>
        <source>Case</source>
        <translation>用例</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="247"/>
        <location filename="../ui/main_window.cpp" line="249"/>
        <location filename="../ui/main_window.cpp" line="250"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="247"/>
        <source>Max rel. error</source>
        <translation>最大相对误差</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="247"/>
        <source>Baseline</source>
        <translation>基线</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="247"/>
        <location filename="../ui/main_window.cpp" line="249"/>
        <location filename="../ui/main_window.cpp" line="250"/>
        <source>Kernel</source>
        <translation>内核</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="248"/>
        <location filename="../ui/main_window.cpp" line="249"/>
        <location filename="../ui/main_window.cpp" line="250"/>
        <source>Speedup</source>
        <translation>加速比</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="248"/>
        <source>Message</source>
        <translation>信息</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="249"/>
        <location filename="../ui/main_window.cpp" line="250"/>
        <location filename="../ui/main_window.cpp" line="256"/>
        <source>Task</source>
        <translation>任务</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="249"/>
        <source>Promoted</source>
        <translation>已晋升</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="249"/>
        <source>Idea</source>
        <translation>思路</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="250"/>
        <source>Id</source>
        <translation>编号</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="250"/>
        <source>Started</source>
        <translation>开始时间</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="251"/>
        <location filename="../ui/main_window.cpp" line="311"/>
        <source>Cases</source>
        <translation>用例</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="252"/>
        <source>Diagnostics</source>
        <translation>诊断</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="253"/>
        <source>Chart</source>
        <translation>图表</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="254"/>
        <source>Loop</source>
        <translation>循环</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="255"/>
        <source>History</source>
        <translation>历史</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="257"/>
        <source>&amp;Open kernel...</source>
        <translation>打开内核(&amp;O)...</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="258"/>
        <source>&amp;Save kernel</source>
        <translation>保存内核(&amp;S)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="259"/>
        <source>&amp;Evaluate</source>
        <translation>评测(&amp;E)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="260"/>
        <source>Compile, check against the fp64 golden and time against the baseline (Ctrl+R)</source>
        <translation>编译，与 fp64 标准输出比对，并与基线对比计时 (Ctrl+R)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="261"/>
        <source>Run &amp;loop</source>
        <translation>运行循环(&amp;L)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="262"/>
        <source>The optimisation loop on this task with the offline policy</source>
        <translation>以离线策略在此任务上运行优化循环</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="263"/>
        <source>Load</source>
        <translation>载入</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="264"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="265"/>
        <source> Shipped kernels: </source>
        <translation> 内置内核： </translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="266"/>
        <source> Warm-ups: </source>
        <translation> 预热次数： </translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="267"/>
        <source> Timed runs: </source>
        <translation> 计时次数： </translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="268"/>
        <source> Timeout (s): </source>
        <translation> 超时（秒）： </translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="269"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="270"/>
        <source>&amp;Kernel</source>
        <translation>内核(&amp;K)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="272"/>
        <source>No evaluation yet. Write or load a kernel and press Evaluate.</source>
        <translation>尚无评测。请编写或载入一个内核，然后点击“评测”。</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="322"/>
        <source>Reference</source>
        <translation>参考实现</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="330"/>
        <source>Cannot read the kernel file %1: %2</source>
        <translation>无法读取内核文件 %1：%2</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="336"/>
        <source>Opened %1</source>
        <translation>已打开 %1</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="354"/>
        <source>Open kernel</source>
        <translation>打开内核</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="355"/>
        <source>C++ sources (*.cpp *.cc *.cxx *.c);;All files (*)</source>
        <translation>C++ 源文件 (*.cpp *.cc *.cxx *.c);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="362"/>
        <source>Save kernel</source>
        <translation>保存内核</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="362"/>
        <source>C++ sources (*.cpp)</source>
        <translation>C++ 源文件 (*.cpp)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="367"/>
        <source>Cannot write the kernel file %1: %2</source>
        <translation>无法写入内核文件 %1：%2</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="372"/>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="398"/>
        <location filename="../ui/main_window.cpp" line="414"/>
        <source>Select a task first.</source>
        <translation>请先选择一个任务。</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="403"/>
        <source>The kernel is empty: write one or load a shipped kernel.</source>
        <translation>内核为空：请编写一个或载入内置内核。</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="407"/>
        <source>Evaluating %1 on %2...</source>
        <translation>正在 %2 上评测 %1...</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="440"/>
        <source>95% interval: %1 to %2</source>
        <translation>95% 置信区间：%1 至 %2</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="462"/>
        <source>Did not compile: %1</source>
        <translation>编译失败：%1</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="465"/>
        <source>Result: %1</source>
        <translation>结果：%1</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="466"/>
        <source>, speedup %1 (geometric mean over %2 cases)</source>
        <translation>，加速比 %1（%2 个用例的几何平均）</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="467"/>
        <source>, score %1</source>
        <translation>，得分 %1</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="468"/>
        <source>Warning: %1</source>
        <translation>警告：%1</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="471"/>
        <source>Recorded as evaluation %1.</source>
        <translation>已记录为评测 %1。</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="484"/>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="513"/>
        <source>Error: %1</source>
        <translation>错误：%1</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="519"/>
        <source>Working...</source>
        <translation>运行中...</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="519"/>
        <source>Idle</source>
        <translation>空闲</translation>
    </message>
</context>
<context>
    <name>kope::ui::SpeedupChart</name>
    <message>
        <location filename="../ui/speedup_chart.cpp" line="38"/>
        <source>Speedup over the baseline, per case</source>
        <translation>各用例相对基线的加速比</translation>
    </message>
    <message>
        <location filename="../ui/speedup_chart.cpp" line="45"/>
        <source>speedup</source>
        <translation>加速比</translation>
    </message>
    <message>
        <location filename="../ui/speedup_chart.cpp" line="64"/>
        <source>baseline time / kernel time</source>
        <translation>基线耗时 / 内核耗时</translation>
    </message>
    <message>
        <location filename="../ui/speedup_chart.cpp" line="81"/>
        <source>Speedup over the baseline, per case (%1)</source>
        <translation>各用例相对基线的加速比（%1）</translation>
    </message>
</context>
</TS>

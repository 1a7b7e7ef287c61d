<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>KeyStore</name>
    <message>
        <location filename="../ui/llm/key_store.cpp" line="35"/>
        <source>the system keychain</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Startup</name>
    <message>
        <location filename="../ui/startup.cpp" line="52"/>
        <source>The kernel file %1 does not exist.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/startup.cpp" line="56"/>
        <source>%1 is a folder, not a kernel file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/startup.cpp" line="60"/>
        <source>%1 is %2 MiB: too large for a kernel&apos;s source.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/startup.cpp" line="65"/>
        <source>Cannot read the kernel file %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/startup.cpp" line="70"/>
        <source>%1 is not a text file (byte %2 is not UTF-8 text): a kernel is C++ source.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/startup.cpp" line="81"/>
        <source>Kope Workbench cannot start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/startup.cpp" line="137"/>
        <source>Bad usage: %1 (see kope-workbench --help)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/startup.cpp" line="141"/>
        <source>Bad usage: unexpected argument &quot;%1&quot; (see kope-workbench --help)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/startup.cpp" line="152"/>
        <source>No task named &quot;%1&quot; in the suite.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Status</name>
    <message>
        <location filename="../ui/models/status.cpp" line="19"/>
        <source>passed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="20"/>
        <source>wrong</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="21"/>
        <source>crash</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="22"/>
        <source>timeout</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="23"/>
        <source>runtime error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="24"/>
        <source>load error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="25"/>
        <source>inputs modified</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="26"/>
        <source>compile error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="27"/>
        <source>no cases</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="28"/>
        <source>running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="29"/>
        <source>interrupted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="30"/>
        <source>error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="31"/>
        <source>cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="32"/>
        <source>stopped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="33"/>
        <source>done</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="34"/>
        <source>rejected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="35"/>
        <source>needs review</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="36"/>
        <source>proposing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="37"/>
        <source>held for approval</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="38"/>
        <source>compiling</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="39"/>
        <source>waiting for its turn</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="40"/>
        <source>testing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="41"/>
        <source>timing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="42"/>
        <source>paused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="43"/>
        <source>starting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="44"/>
        <source>finished</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="45"/>
        <source>computing goldens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="46"/>
        <source>infrastructure failure</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="47"/>
        <source>waiting for the reply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="48"/>
        <source>streaming</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="49"/>
        <source>candidate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="50"/>
        <source>no candidate</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kope::agentview::AgentView</name>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="27"/>
        <source>hot</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="28"/>
        <source>warm</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="29"/>
        <source>cold</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="41"/>
        <source>requested</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="42"/>
        <source>candidate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="43"/>
        <source>no candidate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="44"/>
        <source>evaluated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="135"/>
        <source>section</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="135"/>
        <source>kind</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="135"/>
        <source>tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="135"/>
        <source>rank</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="171"/>
        <source>Evaluation %1: no transcript (not an LLM attempt).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="172"/>
        <location filename="../ui/agentview/agent_view.cpp" line="222"/>
        <source>No transcript (not an LLM attempt).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="192"/>
        <source>retrieved by memory before this attempt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="195"/>
        <source>#%1 Case %2 (%3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="218"/>
        <source>Cannot read the transcript: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="231"/>
        <source>&lt;b&gt;Attempt %1&lt;/b&gt; · run %2 · %3 on %4 · iteration %5 · %6/%7 · memory %8 · %9%10</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="239"/>
        <source>usage: %1 prompt + %2 completion tokens (%3) · %4 s · finish %5 · cost %6%7</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="241"/>
        <source>reported by the server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="241"/>
        <source>estimated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="244"/>
        <source>unknown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="245"/>
        <source> · error: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="246"/>
        <source>— answer —
</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="247"/>
        <source>

— reasoning —
</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="249"/>
        <source>no reply recorded (the request did not complete)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="260"/>
        <source>budget B = W %1 − system %2 − output %3 − reserve %4 = %5 tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="292"/>
        <source>no room left in the budget</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="293"/>
        <source>over its tier&apos;s quota</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="294"/>
        <source>not relevant to this state</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="315"/>
        <source>ranked but left out</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="319"/>
        <source>%1 (%2): %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="330"/>
        <source>Select Case %1 in the graph</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="334"/>
        <source>%1 — %2 tokens</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kope::agentview::BudgetBar</name>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="59"/>
        <source>hot %1 + warm %2 + cold %3 = %4 of %5 tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="84"/>
        <source>hot %1 · warm %2 · cold %3 / B %4 tokens</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kope::graph::CaseDetails</name>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="73"/>
        <source>Open in editor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="74"/>
        <source>Compare with incumbent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="75"/>
        <source>Compare with selected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="76"/>
        <source>Fork run from here</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="78"/>
        <location filename="../ui/graph/case_details.cpp" line="85"/>
        <source>Select a Case in the graph.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="103"/>
        <source>incumbent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="104"/>
        <source>pruned</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="105"/>
        <source>pinned</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="106"/>
        <source>marked as cheat</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="107"/>
        <source>marked as invalid measurement</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="109"/>
        <source>foreign (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="110"/>
        <source>&lt;b&gt;Case #%1&lt;/b&gt; · %2 on %3 · %4 · %5%6</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="113"/>
        <source>correct, %1×</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="113"/>
        <source>incorrect (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="121"/>
        <source>Thought</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="121"/>
        <source>(none given)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="124"/>
        <source>Tags</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="124"/>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="126"/>
        <source>parent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="126"/>
        <source>baseline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="127"/>
        <source>step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="128"/>
        <source>run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="131"/>
        <source>Speedups per case</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="134"/>
        <source>case</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="135"/>
        <source>status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="135"/>
        <source>speedup</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="135"/>
        <source>95% interval</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="147"/>
        <source>overall %1× [%2 … %3] (no per-case report stored)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="149"/>
        <source>no report stored for this Case (foreign or synthetic)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="151"/>
        <source>Feedback</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="152"/>
        <source>(none)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="153"/>
        <source>Diff against parent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="153"/>
        <source>(no diff: a root or unchanged)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="154"/>
        <source>Journal</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="155"/>
        <source>(no entry)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="159"/>
        <source>Curation history</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="160"/>
        <source>(never curated)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="164"/>
        <source> (subtree, %1 Cases)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kope::graph::CurationCommand</name>
    <message>
        <location filename="../ui/graph/curation.cpp" line="25"/>
        <source>prune</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/curation.cpp" line="26"/>
        <source>prune subtree</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/curation.cpp" line="27"/>
        <source>unprune</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/curation.cpp" line="28"/>
        <source>unprune subtree</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/curation.cpp" line="29"/>
        <source>pin</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/curation.cpp" line="30"/>
        <source>unpin</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/curation.cpp" line="31"/>
        <source>mark cheat</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/curation.cpp" line="32"/>
        <source>mark invalid</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/curation.cpp" line="33"/>
        <source>clear mark</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/graph/curation.cpp" line="41"/>
        <source>%1 %n Case(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
</context>
<context>
    <name>kope::graph::FilterBar</name>
    <message>
        <location filename="../ui/graph/filter_bar.cpp" line="40"/>
        <source>all tasks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/filter_bar.cpp" line="40"/>
        <source>all devices</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/filter_bar.cpp" line="40"/>
        <source>all labels</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/filter_bar.cpp" line="41"/>
        <source>all ideas</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/filter_bar.cpp" line="41"/>
        <source>all runs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/filter_bar.cpp" line="41"/>
        <source>local and foreign</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/filter_bar.cpp" line="47"/>
        <source>local</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/filter_bar.cpp" line="48"/>
        <source>foreign</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/filter_bar.cpp" line="49"/>
        <source>search #id or thought…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kope::graph::GraphModel</name>
    <message>
        <location filename="../ui/graph/graph_model.cpp" line="20"/>
        <source>effective</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_model.cpp" line="20"/>
        <source>partial</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_model.cpp" line="21"/>
        <source>ineffective</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_model.cpp" line="21"/>
        <source>negative</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_model.cpp" line="22"/>
        <source>incorrect</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_model.cpp" line="234"/>
        <source>Case</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_model.cpp" line="234"/>
        <source>task</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_model.cpp" line="234"/>
        <source>device</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_model.cpp" line="234"/>
        <source>label</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_model.cpp" line="234"/>
        <source>speedup</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_model.cpp" line="235"/>
        <source>status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_model.cpp" line="235"/>
        <source>run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_model.cpp" line="235"/>
        <source>origin</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_model.cpp" line="235"/>
        <source>curation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_model.cpp" line="235"/>
        <source>thought</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kope::graph::GraphWidget</name>
    <message>
        <location filename="../ui/graph/graph_widget.cpp" line="81"/>
        <source>Reason (recorded with the act):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="221"/>
        <source>╳ hatched: incorrect · </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="221"/>
        <source>&lt;b style=&apos;color:#ffb300&apos;&gt;★ gold outline&lt;/b&gt;: incumbent · </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="222"/>
        <source>&lt;b style=&apos;color:#555&apos;&gt;✂ faded, dashed&lt;/b&gt;: pruned · </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="222"/>
        <source>&lt;b style=&apos;color:#1565c0&apos;&gt;P&lt;/b&gt;: pinned · </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="223"/>
        <source>&lt;b style=&apos;color:#b000b0&apos;&gt;C/I dash-dot&lt;/b&gt;: cheat/invalid · </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="224"/>
        <source>&lt;b style=&apos;color:#008080&apos;&gt;F dotted&lt;/b&gt;: foreign · </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="224"/>
        <source>size: d(v)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="225"/>
        <source>Case</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="226"/>
        <source>What the agent was shown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="227"/>
        <source>Fit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="228"/>
        <source>Fit the graph (F)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="229"/>
        <source>Zoom in</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="230"/>
        <source>Zoom out</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="231"/>
        <source>Re-layout</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="232"/>
        <source>Lay the graph out again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="155"/>
        <location filename="../ui/graph/graph_widget_build.cpp" line="162"/>
        <location filename="../ui/graph/graph_widget_build.cpp" line="233"/>
        <source>Export</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="234"/>
        <source>Save the view as PNG or SVG, or the graph as GraphML</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="236"/>
        <source>View as PNG…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="237"/>
        <source>View as SVG…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="238"/>
        <source>Graph as GraphML…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="239"/>
        <source>Prune…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="239"/>
        <source>Prune subtree…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="239"/>
        <source>Unprune</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="240"/>
        <source>Unprune subtree</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="240"/>
        <source>Pin</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="240"/>
        <source>Unpin</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="241"/>
        <source>Mark as cheat…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="241"/>
        <source>Mark as invalid measurement…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="242"/>
        <source>Clear mark</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget.cpp" line="380"/>
        <location filename="../ui/graph/graph_widget_build.cpp" line="249"/>
        <source>%1 Cases, %2 shown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="254"/>
        <source>Undo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="254"/>
        <source>Undo %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="255"/>
        <source>Redo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="255"/>
        <source>Redo %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="160"/>
        <source>Exported %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget.cpp" line="215"/>
        <source>%1 Cases · layout %2 in %3 ms%4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget.cpp" line="216"/>
        <source> (cached)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget.cpp" line="220"/>
        <source>layout failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget.cpp" line="196"/>
        <location filename="../ui/graph/graph_widget.cpp" line="279"/>
        <location filename="../ui/graph/graph_widget.cpp" line="310"/>
        <source>could not read the memory: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/graph/graph_widget.cpp" line="554"/>
        <source>%n match(es) for &quot;%1&quot;</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/graph/graph_widget.cpp" line="621"/>
        <source>%1 %n Case(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget.cpp" line="630"/>
        <location filename="../ui/graph/graph_widget.cpp" line="637"/>
        <source>Curation</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/graph/graph_widget.cpp" line="634"/>
        <source>%1: %n Case(s) changed</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
</context>
<context>
    <name>kope::ui::AttemptActions</name>
    <message>
        <location filename="../ui/attempt_actions.cpp" line="188"/>
        <source>Open the attempt (kernel, diff, results, transcript)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/attempt_actions.cpp" line="189"/>
        <source>Open its kernel in the editor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/attempt_actions.cpp" line="190"/>
        <source>Diff against its parent kernel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/attempt_actions.cpp" line="191"/>
        <source>Its results</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/attempt_actions.cpp" line="192"/>
        <source>Its LLM transcript</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/attempt_actions.cpp" line="193"/>
        <source>Show its Case in the graph</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/attempt_actions.cpp" line="194"/>
        <source>Compare with the incumbent</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kope::ui::AttemptModel</name>
    <message>
        <location filename="../ui/models/models.cpp" line="127"/>
        <source>Task</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="128"/>
        <source>Kernel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="129"/>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="130"/>
        <source>Speedup</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="131"/>
        <source>Promoted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="132"/>
        <source>Idea</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="161"/>
        <source>yes</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kope::ui::AttemptPane</name>
    <message>
        <location filename="../ui/views/attempt_pane.cpp" line="73"/>
        <source>Double-click an attempt in the run controller, a Case in the graph or a History row to see everything about it here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/attempt_pane.cpp" line="77"/>
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/attempt_pane.cpp" line="78"/>
        <source>evaluation %1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/attempt_pane.cpp" line="79"/>
        <source>no evaluation: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/attempt_pane.cpp" line="80"/>
        <source>parent: %1 (evaluation %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/attempt_pane.cpp" line="81"/>
        <source>parent: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/attempt_pane.cpp" line="82"/>
        <source>Case %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/attempt_pane.cpp" line="83"/>
        <source>transcript %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/attempt_pane.cpp" line="90"/>
        <source>No diff: the attempt ran no kernel, or its kernel is its parent&apos;s.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/attempt_pane.cpp" line="109"/>
        <source>No results: the attempt ran no evaluation.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/attempt_pane.cpp" line="110"/>
        <source>No results: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/attempt_pane.cpp" line="115"/>
        <source>Evaluation %1 has no report: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/attempt_pane.cpp" line="121"/>
        <source>Result: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/attempt_pane.cpp" line="122"/>
        <source>Did not compile: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/attempt_pane.cpp" line="123"/>
        <source>, speedup %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/attempt_pane.cpp" line="128"/>
        <source>Diff against parent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/attempt_pane.cpp" line="129"/>
        <source>Results</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/attempt_pane.cpp" line="130"/>
        <source>LLM transcript</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/attempt_pane.cpp" line="131"/>
        <source>Open kernel in editor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/attempt_pane.cpp" line="132"/>
        <source>Show Case in graph</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/attempt_pane.cpp" line="133"/>
        <source>Compare with incumbent</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kope::ui::CaseModel</name>
    <message>
        <location filename="../ui/models/models.cpp" line="39"/>
        <source>Case</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="40"/>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="41"/>
        <source>Max rel. error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="42"/>
        <source>Baseline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="43"/>
        <source>Kernel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="44"/>
        <source>Speedup</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="45"/>
        <source>95% interval</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="46"/>
        <source>Memory floor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="47"/>
        <source>HAP</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="48"/>
        <source>Message</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kope::ui::CasesPane</name>
    <message>
        <location filename="../ui/views/cases_pane.cpp" line="90"/>
        <source>Output</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/cases_pane.cpp" line="91"/>
        <source>Mean rel. error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/cases_pane.cpp" line="92"/>
        <source>Max rel. error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/cases_pane.cpp" line="93"/>
        <source>Limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/cases_pane.cpp" line="94"/>
        <source>Worst at</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/cases_pane.cpp" line="95"/>
        <source>Expected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/cases_pane.cpp" line="96"/>
        <source>Got</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/cases_pane.cpp" line="100"/>
        <source>Correctness call</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/cases_pane.cpp" line="101"/>
        <source>Last timed call</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/cases_pane.cpp" line="103"/>
        <source>Baseline median</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/cases_pane.cpp" line="103"/>
        <source>kernel median</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/cases_pane.cpp" line="104"/>
        <source>speedup</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/cases_pane.cpp" line="107"/>
        <source>Runner log</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kope::ui::CompareModel</name>
    <message>
        <location filename="../ui/models/models.cpp" line="241"/>
        <source>Case</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="242"/>
        <source>A status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="243"/>
        <source>B status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="244"/>
        <source>A median</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="245"/>
        <source>B median</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="246"/>
        <source>B over A</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="247"/>
        <source>95% interval</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kope::ui::ComparePane</name>
    <message>
        <location filename="../ui/views/compare_pane.cpp" line="88"/>
        <source>Pick two versions in History (or one and the incumbent) to compare them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/compare_pane.cpp" line="89"/>
        <source>A</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/compare_pane.cpp" line="90"/>
        <source>B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/compare_pane.cpp" line="91"/>
        <location filename="../ui/views/compare_pane.cpp" line="110"/>
        <source>B over A, per case</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/compare_pane.cpp" line="94"/>
        <source>A: evaluation %1 (%2) · B: evaluation %3 (%4) · B over A: %5</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/compare_pane.cpp" line="99"/>
        <source>(different tasks)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/compare_pane.cpp" line="100"/>
        <source>A: evaluation %1, %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/compare_pane.cpp" line="101"/>
        <source>B: evaluation %1, %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/compare_pane.cpp" line="110"/>
        <source>B over A</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/compare_pane.cpp" line="111"/>
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
        <location filename="../ui/models/models.cpp" line="96"/>
        <source>File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="97"/>
        <source>Line</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="98"/>
        <source>Column</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="99"/>
        <source>Severity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="100"/>
        <source>Message</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kope::ui::DoctorDialog</name>
    <message>
        <location filename="../ui/doctor/doctor_dialog.cpp" line="70"/>
        <source>Checking this machine...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_dialog.cpp" line="98"/>
        <source>The checks failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_dialog.cpp" line="100"/>
        <source>Verdicts on this machine are trustworthy because:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_dialog.cpp" line="102"/>
        <source>Verdicts on this machine are weakened because:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_dialog.cpp" line="104"/>
        <source>(nothing found)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_dialog.cpp" line="105"/>
        <source>kope cannot give verdicts here until the failed checks are fixed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_dialog.cpp" line="110"/>
        <source>Machine check</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_dialog.cpp" line="111"/>
        <source>What this machine gives kope, as `kope doctor` reports it: each check with its verdict and what to do.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_dialog.cpp" line="113"/>
        <source>&amp;Refresh</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_dialog.cpp" line="114"/>
        <source>Close</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_dialog.cpp" line="115"/>
        <source>%1 checks run.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kope::ui::DoctorModel</name>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="26"/>
        <source>unknown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="28"/>
        <source>ok</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="29"/>
        <source>info</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="30"/>
        <source>warn</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="31"/>
        <source>fail</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="38"/>
        <source>C++ compiler</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="39"/>
        <source>Library baseline (ATen)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="40"/>
        <source>User namespaces</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="41"/>
        <source>Bubblewrap (namespaces)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="42"/>
        <source>Seccomp filter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="43"/>
        <source>Exact CPU clock on workers (perf task-clock)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="44"/>
        <source>Cgroups (whole-tree limits)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="45"/>
        <source>Cache sizes for the flush</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="46"/>
        <source>Timer resolution</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="47"/>
        <source>CPU frequency governor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="48"/>
        <source>Turbo / boost</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="49"/>
        <source>Isolated cores</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="50"/>
        <source>SMT (hyper-threading)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="51"/>
        <source>Load at the time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="52"/>
        <source>Devices</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="58"/>
        <source>Verdict</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="59"/>
        <source>Check</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="60"/>
        <source>Found</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="61"/>
        <source>What to do</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kope::ui::HistoryModel</name>
    <message>
        <location filename="../ui/models/models.cpp" line="171"/>
        <source>Id</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="172"/>
        <source>Task</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="173"/>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="174"/>
        <source>Speedup</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="175"/>
        <source>Started</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="176"/>
        <source>Kernel</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kope::ui::HistoryPane</name>
    <message>
        <location filename="../ui/views/history_pane.cpp" line="99"/>
        <source>Restore this version</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/history_pane.cpp" line="100"/>
        <source>Bring this kernel version and its results back into the editor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/history_pane.cpp" line="101"/>
        <source>Compare the two selected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/history_pane.cpp" line="102"/>
        <source>Compare with the incumbent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/history_pane.cpp" line="103"/>
        <source>Fork a run from here</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kope::ui::InFlightModel</name>
    <message>
        <location filename="../ui/models/run_models.cpp" line="27"/>
        <source>Task</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/run_models.cpp" line="28"/>
        <source>Phase</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/run_models.cpp" line="29"/>
        <source>Attempt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/run_models.cpp" line="30"/>
        <source>Last status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/run_models.cpp" line="31"/>
        <source>Incumbent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/run_models.cpp" line="32"/>
        <source>Tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/run_models.cpp" line="58"/>
        <source>%1 (stopping)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/run_models.cpp" line="59"/>
        <source>%1 (pause asked)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/run_models.cpp" line="60"/>
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/run_models.cpp" line="63"/>
        <source>%1/%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/run_models.cpp" line="65"/>
        <source>baseline</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kope::ui::LiveReplyModel</name>
    <message>
        <location filename="../ui/models/live_models.cpp" line="16"/>
        <source>Task</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/live_models.cpp" line="17"/>
        <source>Attempt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/live_models.cpp" line="18"/>
        <source>Reply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/live_models.cpp" line="19"/>
        <source>Tokens in</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/live_models.cpp" line="20"/>
        <source>Tokens out</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/live_models.cpp" line="21"/>
        <source>Cost</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/live_models.cpp" line="22"/>
        <source>Time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/live_models.cpp" line="39"/>
        <source>%1%2 in · %1%3 out</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/live_models.cpp" line="43"/>
        <source>no price set</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kope::ui::LiveReplyPane</name>
    <message>
        <location filename="../ui/views/live_reply_pane.cpp" line="181"/>
        <source>No prompt yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/live_reply_pane.cpp" line="189"/>
        <source>The prompt of attempt %1 on %2, by tier</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/live_reply_pane.cpp" line="228"/>
        <source>No LLM attempt yet: the model&apos;s reply streams in here once a run&apos;s policy asks a model.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/live_reply_pane.cpp" line="231"/>
        <source>Reasoning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/live_reply_pane.cpp" line="237"/>
        <source>: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/live_reply_pane.cpp" line="238"/>
        <source>%1 · attempt %2 · %3 — %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/live_reply_pane.cpp" line="239"/>
        <source>Tokens %1 · cost %2 · time %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/live_reply_pane.cpp" line="246"/>
        <source>Reasoning: %1 characters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/live_reply_pane.cpp" line="247"/>
        <source>Reasoning (none reported apart from the answer)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/live_reply_pane.cpp" line="253"/>
        <source>The model&apos;s reasoning (reasoning_content or thinking), kept apart from the answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/live_reply_pane.cpp" line="254"/>
        <source>The answer streams in here.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kope::ui::LlmSettingsDialog</name>
    <message>
        <location filename="../ui/llm/llm_settings_dialog.cpp" line="42"/>
        <source>API key of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_dialog.cpp" line="43"/>
        <source>The key, kept in %1 (never in the settings file):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_dialog.cpp" line="169"/>
        <source>LLM profiles</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_dialog.cpp" line="170"/>
        <source>Settings file (the one `kope run --policy llm` reads): %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_dialog.cpp" line="171"/>
        <source>Move the keys to the keychain</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_dialog.cpp" line="172"/>
        <source>&amp;Add profile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_dialog.cpp" line="173"/>
        <source>&amp;Delete profile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_dialog.cpp" line="174"/>
        <source>Make de&amp;fault</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_dialog.cpp" line="175"/>
        <source>&lt;b&gt;API key&lt;/b&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_dialog.cpp" line="176"/>
        <source>Store a key in the keychain…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_dialog.cpp" line="177"/>
        <source>Remove the key from the keychain</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_dialog.cpp" line="178"/>
        <location filename="../ui/llm/llm_settings_keys.cpp" line="150"/>
        <source>Cancel the test</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_dialog.cpp" line="178"/>
        <location filename="../ui/llm/llm_settings_keys.cpp" line="135"/>
        <location filename="../ui/llm/llm_settings_keys.cpp" line="175"/>
        <source>&amp;Test connection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_dialog.cpp" line="179"/>
        <source>Send one tiny request with this profile as the form holds it (unsaved edits included)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_dialog.cpp" line="181"/>
        <source>&amp;Save</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_dialog.cpp" line="182"/>
        <source>&amp;Close</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_dialog.cpp" line="200"/>
        <source>%1 (default)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_dialog.cpp" line="218"/>
        <source>Looking in %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_dialog.cpp" line="242"/>
        <source>Not renamed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_dialog.cpp" line="272"/>
        <source>Delete the profile %1? Its key in %2 goes too once the file is saved.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_dialog.cpp" line="300"/>
        <source>The settings file cannot be edited here until it is fixed by hand: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_dialog.cpp" line="311"/>
        <source>%1 (kept as it is; the command line refuses the file until it goes)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_dialog.cpp" line="340"/>
        <source>Not saved: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_dialog.cpp" line="364"/>
        <source>The LLM profiles have unsaved changes. Save them?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_keys.cpp" line="40"/>
        <source>Stored in %1; sent in place of $%2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_keys.cpp" line="42"/>
        <source>read from $%1, which is set</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_keys.cpp" line="43"/>
        <source>$%1 is not set: none is sent (a server on this machine may need none)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_keys.cpp" line="44"/>
        <source>$%1 is not set: store a key, or set the variable</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_keys.cpp" line="45"/>
        <source>Not in %1; %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_keys.cpp" line="47"/>
        <source>%1 cannot be reached; %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_keys.cpp" line="50"/>
        <source>The settings file holds a key for this profile: move it to the keychain (above).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_keys.cpp" line="62"/>
        <source>Not stored in %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_keys.cpp" line="71"/>
        <source>Not removed from %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_keys.cpp" line="84"/>
        <source>The settings file holds API keys (profiles %1). Keys are kept in the system keychain or an environment variable, never in the file: the command line refuses it as it is.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_keys.cpp" line="107"/>
        <source>The keys are in the keychain, but the file was not saved: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_keys.cpp" line="119"/>
        <source>Not moved: %1 cannot store the key of %2 (%3). The file is unchanged.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_keys.cpp" line="136"/>
        <source>Test cancelled.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_keys.cpp" line="145"/>
        <source>Fix the profile first: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_keys.cpp" line="152"/>
        <source>Reading the key…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_keys.cpp" line="170"/>
        <source>Sending one request to %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_keys.cpp" line="177"/>
        <source>as the server counted them</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_keys.cpp" line="177"/>
        <source>estimated: the server sent no usage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_keys.cpp" line="178"/>
        <source>Connected. Model %1 answered in %2 s: &quot;%3&quot;
Tokens: %4 in, %5 out (%6).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_keys.cpp" line="179"/>
        <source>%1 (the server did not name it)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_keys.cpp" line="185"/>
        <source>Cost: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_keys.cpp" line="189"/>
        <source>Failed: HTTP %1 (%2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_keys.cpp" line="190"/>
        <source>Failed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_keys.cpp" line="191"/>
        <source>Failed (%1, no HTTP answer).</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kope::ui::MainWindow</name>
    <message>
        <location filename="../ui/main_window_build.cpp" line="422"/>
        <source>Tasks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="432"/>
        <source>Task</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="222"/>
        <location filename="../ui/main_window_build.cpp" line="425"/>
        <source>Cases</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="428"/>
        <source>Chart</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="429"/>
        <source>History</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="436"/>
        <source>&amp;Open kernel...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="437"/>
        <source>&amp;Save kernel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="443"/>
        <source>&amp;Evaluate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="444"/>
        <source>Compile, check against the fp64 golden and time against the baseline (Ctrl+R)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="447"/>
        <source>Load</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="448"/>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="451"/>
        <source> Shipped kernels: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="452"/>
        <source> Warm-ups: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="453"/>
        <source> Timed runs: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="454"/>
        <source> Timeout (s): </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="455"/>
        <source>&amp;File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="456"/>
        <source>&amp;Kernel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="215"/>
        <location filename="../ui/main_window_build.cpp" line="472"/>
        <source>No evaluation yet. Write or load a kernel and press Evaluate.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="233"/>
        <source>Reference</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="255"/>
        <source>Opened %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="246"/>
        <location filename="../ui/main_window.cpp" line="307"/>
        <source>Open kernel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="308"/>
        <source>C++ sources (*.cpp *.cc *.cxx *.c);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="66"/>
        <location filename="../ui/main_window.cpp" line="338"/>
        <source>Save kernel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="54"/>
        <source>Unsaved changes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="66"/>
        <source>C++ sources (*.cpp)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="80"/>
        <source>Evaluation cancelled. It is recorded in the workspace; its results are not shown.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="82"/>
        <source>Evaluation cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="90"/>
        <source>The kernel has unsaved changes. Save them before switching to task %1?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="165"/>
        <source>The kernel has unsaved changes. Save them before the held candidate replaces them?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="169"/>
        <source>Candidate %1 is held for approval: edit it here, then Approve or Reject in the run controller.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="174"/>
        <source>The candidate went on to the loop as it stands in the editor (or was rejected); its attempt appears in the run controller.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="211"/>
        <source>The kernel has unsaved changes. Save them before opening this Case&apos;s kernel?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="213"/>
        <source>A kernel from the experience graph: evaluate it to see its results here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="290"/>
        <source>Open a study folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="423"/>
        <source>Run controller</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="424"/>
        <source>Experience graph</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="426"/>
        <source>Compile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="427"/>
        <source>Profile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="430"/>
        <source>Compare</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="431"/>
        <source>Attempt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="433"/>
        <source>Study</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="434"/>
        <source>Open s&amp;tudy...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="435"/>
        <source>The arms of a `kope study` side by side: pass rate, fast_1, speedup, score, tokens and time per level</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="445"/>
        <source>&amp;Cancel evaluation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="446"/>
        <source>Stop the running evaluation (Esc)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="449"/>
        <source>&amp;Machine check...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="450"/>
        <source>What this machine gives kope: compiler, library baseline, sandbox, timing conditions, devices (kope doctor)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="457"/>
        <source>&amp;View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="459"/>
        <source>&amp;Help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="137"/>
        <source>The kernel has unsaved changes. Save them before quitting?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="165"/>
        <location filename="../ui/main_window.cpp" line="317"/>
        <source>untitled.cpp</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="167"/>
        <source>%1[*]%2 — Kope Workbench</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="194"/>
        <source>the editor has changed since this evaluation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="242"/>
        <source>The kernel has unsaved changes. Save them before opening %1?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="264"/>
        <source>The kernel has unsaved changes. Save them before loading %1?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="276"/>
        <location filename="../ui/main_window.cpp" line="283"/>
        <source>The kernel has unsaved changes. Save them before restoring evaluation %1?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="300"/>
        <source>Evaluation %1 has no report: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="302"/>
        <source>Restored evaluation %1 (kernel version %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="336"/>
        <source>Cannot write the kernel file %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="344"/>
        <source>Saved %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="378"/>
        <source>Select a task first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="383"/>
        <source>The kernel is empty: write one or load a shipped kernel.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="392"/>
        <source>Evaluating %1 on %2...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="415"/>
        <source>%1 case %2 of %3 (%4)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="423"/>
        <source>%1: %2 of %3 done (%4)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="444"/>
        <source>Did not compile: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="452"/>
        <source>Result: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="453"/>
        <source>, speedup %1 (geometric mean over %2 cases)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="454"/>
        <source>, score %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="455"/>
        <source>Warning: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="493"/>
        <source>Error: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="502"/>
        <source>Cannot open the study</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="510"/>
        <source>Working...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="510"/>
        <source>Idle</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="438"/>
        <source>Save kernel &amp;as...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="439"/>
        <source>Com&amp;pile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="440"/>
        <source>Build the kernel and mark its diagnostics; nothing is recorded (Ctrl+B)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="441"/>
        <source>&amp;LLM profiles...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="442"/>
        <source>The models the agent can use: profiles of the settings file, keys in the system keychain, a connection test</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="458"/>
        <source>&amp;Settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="472"/>
        <source>It compiles (%1 s). Nothing was recorded: Evaluate tests and times it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="475"/>
        <source>Did not compile: %1
Not recorded: a kernel typed here that does not build is no attempt, so it makes no evaluation and no Case in the memory.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kope::ui::ProfileForm</name>
    <message>
        <location filename="../ui/llm/profile_form.cpp" line="148"/>
        <source>OpenAI-compatible (Chat Completions API)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/profile_form.cpp" line="149"/>
        <source>Anthropic (Messages API)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/profile_form.cpp" line="150"/>
        <source>&amp;Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/profile_form.cpp" line="151"/>
        <source>&amp;Protocol</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/profile_form.cpp" line="152"/>
        <source>&amp;Base URL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/profile_form.cpp" line="153"/>
        <source>&amp;Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/profile_form.cpp" line="154"/>
        <source>Context window (tokens)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/profile_form.cpp" line="155"/>
        <source>Output tokens at most</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/profile_form.cpp" line="156"/>
        <source>Temperature</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/profile_form.cpp" line="157"/>
        <source>Price in (per million tokens)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/profile_form.cpp" line="158"/>
        <source>Price out (per million tokens)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/profile_form.cpp" line="159"/>
        <source>Requests at once</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/profile_form.cpp" line="160"/>
        <source>Connect timeout (s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/profile_form.cpp" line="161"/>
        <source>Stalled stream dropped after (s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/profile_form.cpp" line="162"/>
        <source>Retries</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/profile_form.cpp" line="163"/>
        <source>Key&apos;s environment variable</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/profile_form.cpp" line="164"/>
        <source>http://localhost:8000/v1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/profile_form.cpp" line="165"/>
        <source>the model&apos;s name on that server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/profile_form.cpp" line="166"/>
        <location filename="../ui/llm/profile_form.cpp" line="167"/>
        <source>unknown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/profile_form.cpp" line="168"/>
        <source>This profile&apos;s requests in flight at once over the whole process (max_in_flight)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/profile_form.cpp" line="169"/>
        <source>A stream below 1 byte/s for this long is dropped and retried (low_speed_time_s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/llm/profile_form.cpp" line="170"/>
        <source>Read when the system keychain holds no key for this profile, as the command line does</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kope::ui::ProfilePane</name>
    <message>
        <location filename="../ui/views/profile_pane.cpp" line="76"/>
        <source>Device profiler counters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/profile_pane.cpp" line="82"/>
        <source>Timed samples</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/profile_pane.cpp" line="83"/>
        <source>No timed case: evaluate a kernel to see its samples.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/profile_pane.cpp" line="93"/>
        <source>seconds</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/profile_pane.cpp" line="93"/>
        <source>milliseconds</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/profile_pane.cpp" line="93"/>
        <source>nanoseconds</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/profile_pane.cpp" line="97"/>
        <source>memory-bound floor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/profile_pane.cpp" line="98"/>
        <source>Timed samples of case %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/profile_pane.cpp" line="99"/>
        <source>baseline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/profile_pane.cpp" line="99"/>
        <source>kernel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/profile_pane.cpp" line="100"/>
        <source>sample</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/profile_pane.cpp" line="93"/>
        <source>microseconds</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/profile_pane.cpp" line="102"/>
        <source>Baseline median %1, kernel median %2 over %3 samples.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/profile_pane.cpp" line="106"/>
        <source>Speedup %1, 95% interval %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/profile_pane.cpp" line="108"/>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/profile_pane.cpp" line="110"/>
        <source>Memory-bound floor %1; position against it (HAP) %2: 50% is the baseline&apos;s speed, 100% the floor.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/profile_pane.cpp" line="114"/>
        <source>No memory-bound floor was measured for this case.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kope::ui::ResultsHeader</name>
    <message>
        <location filename="../ui/views/results_header.cpp" line="74"/>
        <source>Task %1 · kernel %2 · evaluating: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/results_header.cpp" line="81"/>
        <source>No task selected.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/results_header.cpp" line="81"/>
        <source>Task %1 · no evaluation of this kernel yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/results_header.cpp" line="84"/>
        <source>Task %1 · kernel %2 (%3) · evaluation %4 · %5</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/results_header.cpp" line="89"/>
        <source>STALE: %1 — </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/results_header.cpp" line="77"/>
        <source>Task %1 · kernel %2 (%3) · built only, recorded nowhere · %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/results_header.cpp" line="78"/>
        <source>compiles</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kope::ui::RunController</name>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="328"/>
        <source>stopping: the running evaluation is cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="362"/>
        <source>write the hint in the hint field first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="391"/>
        <location filename="../ui/views/run_controller.cpp" line="423"/>
        <source>held for approval: %1 (edit it in the editor, then Approve or Reject)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="446"/>
        <source>run %1 stopped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="446"/>
        <source>run %1 done</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="457"/>
        <source>the run failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="479"/>
        <source>The next attempt starts from evaluation %1 as the incumbent.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="488"/>
        <source>Choose at least one task to run.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="492"/>
        <source>The run did not start: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="587"/>
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="608"/>
        <source>%1 case %2 of %3 (%4)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="621"/>
        <source>%1: %2 of %3 done (%4)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="638"/>
        <source>Tasks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="639"/>
        <source>Policy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="640"/>
        <source>offline replays the shipped kernels; type an LLM profile name to use a model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="641"/>
        <source>Memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="642"/>
        <source>Attempts per task</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="643"/>
        <source>Patience (attempts without gain)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="644"/>
        <source>Token budget (thousands)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="645"/>
        <source>Wall time (minutes)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="646"/>
        <source>Tasks at once</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="647"/>
        <source>How many tasks advance side by side (kope run --jobs); timing never overlaps on a device</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="648"/>
        <source>Devices</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="649"/>
        <source>cpu, cpu:0-3,cpu:4-7, cuda:0,1, ascend:0-7</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="650"/>
        <source>The device pool (kope run --device): each timing slot measures one kernel at a time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="653"/>
        <source>Start run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="567"/>
        <source>Pause after attempt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="654"/>
        <source>Stop now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="573"/>
        <source>A hint for the next prompt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="655"/>
        <source>Send hint</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="656"/>
        <source>Hold each candidate for approval</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="657"/>
        <source>Approve</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="658"/>
        <source>Reject</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="659"/>
        <source>Pin the incumbent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="661"/>
        <source>No run yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="636"/>
        <source>Attempts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="637"/>
        <source>Steering log</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="515"/>
        <source>reading the key of %1 from %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="567"/>
        <source>Resume</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="568"/>
        <source>Go on with the next attempt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="569"/>
        <source>Let the running attempt finish, then wait</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="573"/>
        <source>Hints go to a running run: start one first</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kope::ui::RunModel</name>
    <message>
        <location filename="../ui/models/models.cpp" line="213"/>
        <source>Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="214"/>
        <source>Command</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="215"/>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="216"/>
        <source>Started</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="217"/>
        <source>Finished</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kope::ui::RunMonitor</name>
    <message>
        <location filename="../ui/views/run_monitor.cpp" line="168"/>
        <source>%1/%2 (%3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_monitor.cpp" line="203"/>
        <source>pauses after its current attempt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_monitor.cpp" line="203"/>
        <source>resumed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_monitor.cpp" line="212"/>
        <source>stopping: its running evaluation is cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_monitor.cpp" line="246"/>
        <source>%1 of %2 tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_monitor.cpp" line="251"/>
        <source>%1 of %2 attempts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_monitor.cpp" line="257"/>
        <source>%1 of %2 wall time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_monitor.cpp" line="261"/>
        <source>%1 elapsed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_monitor.cpp" line="273"/>
        <source>Resume task</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_monitor.cpp" line="273"/>
        <source>Pause task</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_monitor.cpp" line="279"/>
        <source>Budget</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_monitor.cpp" line="280"/>
        <source>Tasks in flight</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_monitor.cpp" line="281"/>
        <source>Device pool</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_monitor.cpp" line="282"/>
        <source>Pause the selected task after its current attempt, or resume it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_monitor.cpp" line="283"/>
        <source>Stop task</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_monitor.cpp" line="284"/>
        <source>Stop the selected task now; the others go on</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_monitor.cpp" line="285"/>
        <source>Hint to task</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/run_monitor.cpp" line="286"/>
        <source>Send the hint being written above to the selected task alone</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kope::ui::SlotModel</name>
    <message>
        <location filename="../ui/models/run_models.cpp" line="156"/>
        <source>Slot</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/run_models.cpp" line="157"/>
        <source>State</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/run_models.cpp" line="158"/>
        <source>Doing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/run_models.cpp" line="159"/>
        <source>Measurements</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/run_models.cpp" line="184"/>
        <source>retired</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/run_models.cpp" line="184"/>
        <source>busy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/run_models.cpp" line="184"/>
        <source>idle</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/run_models.cpp" line="185"/>
        <source>out of the pool: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/run_models.cpp" line="183"/>
        <source>all cores</source>
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
        <location filename="../ui/models/models.cpp" line="284"/>
        <source>At</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="285"/>
        <source>Act</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="286"/>
        <source>Detail</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kope::ui::StudyChart</name>
    <message>
        <location filename="../ui/charts/study_chart.cpp" line="44"/>
        <source>Pass rate per arm and level (% of cases)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/charts/study_chart.cpp" line="45"/>
        <source>Geometric-mean speedup per arm and level</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kope::ui::StudyLevelModel</name>
    <message>
        <location filename="../ui/models/study_models.cpp" line="17"/>
        <source>Arm</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/study_models.cpp" line="18"/>
        <source>Level</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/study_models.cpp" line="19"/>
        <source>Compiled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/study_models.cpp" line="20"/>
        <source>Correct</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/study_models.cpp" line="21"/>
        <source>Pass rate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/study_models.cpp" line="22"/>
        <source>fast_1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/study_models.cpp" line="23"/>
        <source>Speedup (geomean)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/study_models.cpp" line="24"/>
        <source>Score</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/study_models.cpp" line="25"/>
        <source>Attempts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/study_models.cpp" line="26"/>
        <source>Tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/study_models.cpp" line="27"/>
        <source>Wall time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/study_models.cpp" line="50"/>
        <source>operators correct and faster than the %1 baseline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/study_models.cpp" line="58"/>
        <source>%1 (%2/%3 cases)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/study_models.cpp" line="64"/>
        <source>%1 s</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kope::ui::StudyPane</name>
    <message>
        <location filename="../ui/views/study_pane.cpp" line="95"/>
        <location filename="../ui/views/study_pane.cpp" line="128"/>
        <source>all arms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/study_pane.cpp" line="116"/>
        <source>No study open. Run `kope study` and open its folder.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/study_pane.cpp" line="119"/>
        <source>%1: policy %2 on %3, %4 to %5%6</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/study_pane.cpp" line="122"/>
        <source> (stopped before every arm ran)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/study_pane.cpp" line="126"/>
        <source>Open study...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/views/study_pane.cpp" line="127"/>
        <source>&amp;Operators of</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kope::ui::StudyTaskModel</name>
    <message>
        <location filename="../ui/models/study_models.cpp" line="71"/>
        <source>Arm</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/study_models.cpp" line="72"/>
        <source>Level</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/study_models.cpp" line="73"/>
        <source>Operator</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/study_models.cpp" line="74"/>
        <source>Kernel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/study_models.cpp" line="75"/>
        <source>Cases correct</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/study_models.cpp" line="76"/>
        <source>Speedup</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/study_models.cpp" line="77"/>
        <source>Score</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/study_models.cpp" line="78"/>
        <source>Attempts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/study_models.cpp" line="79"/>
        <source>Tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/study_models.cpp" line="106"/>
        <source>(none)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/models/study_models.cpp" line="108"/>
        <source>%1 vs %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kope::ui::TaskModel</name>
    <message>
        <location filename="../ui/models/models.cpp" line="304"/>
        <source>Task</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>

<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>KeyStore</name>
    <message>
        <location filename="../ui/llm/key_store.cpp" line="35"/>
        <source>the system keychain</source>
        <translation>系统密钥环</translation>
    </message>
</context>
<context>
    <name>Startup</name>
    <message>
        <location filename="../ui/startup.cpp" line="52"/>
        <source>The kernel file %1 does not exist.</source>
        <translation>内核文件 %1 不存在。</translation>
    </message>
    <message>
        <location filename="../ui/startup.cpp" line="56"/>
        <source>%1 is a folder, not a kernel file.</source>
        <translation>%1 是文件夹，不是内核文件。</translation>
    </message>
    <message>
        <location filename="../ui/startup.cpp" line="60"/>
        <source>%1 is %2 MiB: too large for a kernel&apos;s source.</source>
        <translation>%1 有 %2 MiB：作为内核源码太大。</translation>
    </message>
    <message>
        <location filename="../ui/startup.cpp" line="65"/>
        <source>Cannot read the kernel file %1: %2</source>
        <translation>无法读取内核文件 %1：%2</translation>
    </message>
    <message>
        <location filename="../ui/startup.cpp" line="70"/>
        <source>%1 is not a text file (byte %2 is not UTF-8 text): a kernel is C++ source.</source>
        <translation>%1 不是文本文件（第 %2 字节不是 UTF-8 文本）：内核应是 C++ 源码。</translation>
    </message>
    <message>
        <location filename="../ui/startup.cpp" line="81"/>
        <source>Kope Workbench cannot start</source>
        <translation>Kope 工作台无法启动</translation>
    </message>
    <message>
        <location filename="../ui/startup.cpp" line="137"/>
        <source>Bad usage: %1 (see kope-workbench --help)</source>
        <translation>用法错误：%1（见 kope-workbench --help）</translation>
    </message>
    <message>
        <location filename="../ui/startup.cpp" line="141"/>
        <source>Bad usage: unexpected argument &quot;%1&quot; (see kope-workbench --help)</source>
        <translation>用法错误：多余的参数“%1”（见 kope-workbench --help）</translation>
    </message>
    <message>
        <location filename="../ui/startup.cpp" line="152"/>
        <source>No task named &quot;%1&quot; in the suite.</source>
        <translation>任务集中没有名为“%1”的任务。</translation>
    </message>
</context>
<context>
    <name>Status</name>
    <message>
        <location filename="../ui/models/status.cpp" line="19"/>
        <source>passed</source>
        <translation>通过</translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="20"/>
        <source>wrong</source>
        <translation>错误结果</translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="21"/>
        <source>crash</source>
        <translation>崩溃</translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="22"/>
        <source>timeout</source>
        <translation>超时</translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="23"/>
        <source>runtime error</source>
        <translation>运行时错误</translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="24"/>
        <source>load error</source>
        <translation>加载错误</translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="25"/>
        <source>inputs modified</source>
        <translation>输入被修改</translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="26"/>
        <source>compile error</source>
        <translation>编译错误</translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="27"/>
        <source>no cases</source>
        <translation>无用例</translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="28"/>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="29"/>
        <source>interrupted</source>
        <translation>已中断</translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="30"/>
        <source>error</source>
        <translation>出错</translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="31"/>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="32"/>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="33"/>
        <source>done</source>
        <translation>完成</translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="34"/>
        <source>rejected</source>
        <translation>已拒绝</translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="35"/>
        <source>needs review</source>
        <translation>待复核</translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="36"/>
        <source>proposing</source>
        <translation>提议中</translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="37"/>
        <source>held for approval</source>
        <translation>等待批准</translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="38"/>
        <source>compiling</source>
        <translation>编译中</translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="39"/>
        <source>waiting for its turn</source>
        <translation>排队等待评测</translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="40"/>
        <source>testing</source>
        <translation>测试中</translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="41"/>
        <source>timing</source>
        <translation>计时中</translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="42"/>
        <source>paused</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="43"/>
        <source>starting</source>
        <translation>启动中</translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="44"/>
        <source>finished</source>
        <translation>已结束</translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="45"/>
        <source>computing goldens</source>
        <translation>正在计算标准答案</translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="46"/>
        <source>infrastructure failure</source>
        <translation>基础设施故障</translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="47"/>
        <source>waiting for the reply</source>
        <translation>等待回复</translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="48"/>
        <source>streaming</source>
        <translation>正在流式输出</translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="49"/>
        <source>candidate</source>
        <translation>候选内核</translation>
    </message>
    <message>
        <location filename="../ui/models/status.cpp" line="50"/>
        <source>no candidate</source>
        <translation>无候选内核</translation>
    </message>
</context>
<context>
    <name>kope::agentview::AgentView</name>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="27"/>
        <source>hot</source>
        <translation>热</translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="28"/>
        <source>warm</source>
        <translation>温</translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="29"/>
        <source>cold</source>
        <translation>冷</translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="41"/>
        <source>requested</source>
        <translation>已请求</translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="42"/>
        <source>candidate</source>
        <translation>已得到候选</translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="43"/>
        <source>no candidate</source>
        <translation>无候选</translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="44"/>
        <source>evaluated</source>
        <translation>已评测</translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="135"/>
        <source>section</source>
        <translation>段落</translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="135"/>
        <source>kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="135"/>
        <source>tokens</source>
        <translation>Token</translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="135"/>
        <source>rank</source>
        <translation>排序分</translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="171"/>
        <source>Evaluation %1: no transcript (not an LLM attempt).</source>
        <translation>评测 %1：无对话记录（不是 LLM 尝试）。</translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="172"/>
        <location filename="../ui/agentview/agent_view.cpp" line="222"/>
        <source>No transcript (not an LLM attempt).</source>
        <translation>无对话记录（不是 LLM 尝试）。</translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="192"/>
        <source>retrieved by memory before this attempt</source>
        <translation>此次尝试前由记忆检索到的内容</translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="195"/>
        <source>#%1 Case %2 (%3)</source>
        <translation>#%1 案例 %2（%3）</translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="218"/>
        <source>Cannot read the transcript: %1</source>
        <translation>无法读取对话记录：%1</translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="231"/>
        <source>&lt;b&gt;Attempt %1&lt;/b&gt; · run %2 · %3 on %4 · iteration %5 · %6/%7 · memory %8 · %9%10</source>
        <translation>&lt;b&gt;尝试 %1&lt;/b&gt; · 运行 %2 · %3（%4）· 第 %5 轮 · %6/%7 · 记忆 %8 · %9%10</translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="239"/>
        <source>usage: %1 prompt + %2 completion tokens (%3) · %4 s · finish %5 · cost %6%7</source>
        <translation>用量：提示 %1 + 补全 %2 Token（%3）· %4 秒 · 结束原因 %5 · 费用 %6%7</translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="241"/>
        <source>reported by the server</source>
        <translation>服务器报告</translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="241"/>
        <source>estimated</source>
        <translation>估算</translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="244"/>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="245"/>
        <source> · error: %1</source>
        <translation> · 错误：%1</translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="246"/>
        <source>— answer —
</source>
        <translation>— 回答 —
</translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="247"/>
        <source>

— reasoning —
</source>
        <translation>

— 推理过程 —
</translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="249"/>
        <source>no reply recorded (the request did not complete)</source>
        <translation>未记录回复（请求未完成）</translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="260"/>
        <source>budget B = W %1 − system %2 − output %3 − reserve %4 = %5 tokens</source>
        <translation>预算 B = W %1 − 系统 %2 − 输出 %3 − 预留 %4 = %5 个令牌</translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="292"/>
        <source>no room left in the budget</source>
        <translation>预算已无余量</translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="293"/>
        <source>over its tier&apos;s quota</source>
        <translation>超出其层级配额</translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="294"/>
        <source>not relevant to this state</source>
        <translation>与当前状态无关</translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="315"/>
        <source>ranked but left out</source>
        <translation>已排序但未纳入</translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="319"/>
        <source>%1 (%2): %3</source>
        <translation>%1（%2）：%3</translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="330"/>
        <source>Select Case %1 in the graph</source>
        <translation>在经验图中选中案例 %1</translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="334"/>
        <source>%1 — %2 tokens</source>
        <translation>%1 — %2 Token</translation>
    </message>
</context>
<context>
    <name>kope::agentview::BudgetBar</name>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="59"/>
        <source>hot %1 + warm %2 + cold %3 = %4 of %5 tokens</source>
        <translation>热 %1 + 温 %2 + 冷 %3 = %4 / %5 Token</translation>
    </message>
    <message>
        <location filename="../ui/agentview/agent_view.cpp" line="84"/>
        <source>hot %1 · warm %2 · cold %3 / B %4 tokens</source>
        <translation>热 %1 · 温 %2 · 冷 %3 / B %4 Token</translation>
    </message>
</context>
<context>
    <name>kope::graph::CaseDetails</name>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="73"/>
        <source>Open in editor</source>
        <translation>在编辑器中打开</translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="74"/>
        <source>Compare with incumbent</source>
        <translation>与当前最优比较</translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="75"/>
        <source>Compare with selected</source>
        <translation>与所选比较</translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="76"/>
        <source>Fork run from here</source>
        <translation>从此处分叉运行</translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="78"/>
        <location filename="../ui/graph/case_details.cpp" line="85"/>
        <source>Select a Case in the graph.</source>
        <translation>请在经验图中选择一个案例。</translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="103"/>
        <source>incumbent</source>
        <translation>当前最优</translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="104"/>
        <source>pruned</source>
        <translation>已剪枝</translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="105"/>
        <source>pinned</source>
        <translation>已固定</translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="106"/>
        <source>marked as cheat</source>
        <translation>已标记为作弊</translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="107"/>
        <source>marked as invalid measurement</source>
        <translation>已标记为无效测量</translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="109"/>
        <source>foreign (%1)</source>
        <translation>外来（%1）</translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="110"/>
        <source>&lt;b&gt;Case #%1&lt;/b&gt; · %2 on %3 · %4 · %5%6</source>
        <translation>&lt;b&gt;案例 #%1&lt;/b&gt; · %2（%3）· %4 · %5%6</translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="113"/>
        <source>correct, %1×</source>
        <translation>正确，%1×</translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="113"/>
        <source>incorrect (%1)</source>
        <translation>不正确（%1）</translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="121"/>
        <source>Thought</source>
        <translation>思路</translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="121"/>
        <source>(none given)</source>
        <translation>（未给出）</translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="124"/>
        <source>Tags</source>
        <translation>标签</translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="124"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="126"/>
        <source>parent</source>
        <translation>父案例</translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="126"/>
        <source>baseline</source>
        <translation>基线</translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="127"/>
        <source>step</source>
        <translation>步</translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="128"/>
        <source>run</source>
        <translation>运行</translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="131"/>
        <source>Speedups per case</source>
        <translation>各用例的加速比</translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="134"/>
        <source>case</source>
        <translation>用例</translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="135"/>
        <source>status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="135"/>
        <source>speedup</source>
        <translation>加速比</translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="135"/>
        <source>95% interval</source>
        <translation>95% 区间</translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="147"/>
        <source>overall %1× [%2 … %3] (no per-case report stored)</source>
        <translation>总体 %1× [%2 … %3]（未存储各用例报告）</translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="149"/>
        <source>no report stored for this Case (foreign or synthetic)</source>
        <translation>此案例未存储报告（外来或合成）</translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="151"/>
        <source>Feedback</source>
        <translation>反馈</translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="152"/>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="153"/>
        <source>Diff against parent</source>
        <translation>与父案例的差异</translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="153"/>
        <source>(no diff: a root or unchanged)</source>
        <translation>（无差异：根案例或未改动）</translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="154"/>
        <source>Journal</source>
        <translation>日志</translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="155"/>
        <source>(no entry)</source>
        <translation>（无条目）</translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="159"/>
        <source>Curation history</source>
        <translation>整理历史</translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="160"/>
        <source>(never curated)</source>
        <translation>（从未整理）</translation>
    </message>
    <message>
        <location filename="../ui/graph/case_details.cpp" line="164"/>
        <source> (subtree, %1 Cases)</source>
        <translation>（子树，%1 个案例）</translation>
    </message>
</context>
<context>
    <name>kope::graph::CurationCommand</name>
    <message>
        <location filename="../ui/graph/curation.cpp" line="25"/>
        <source>prune</source>
        <translation>剪枝</translation>
    </message>
    <message>
        <location filename="../ui/graph/curation.cpp" line="26"/>
        <source>prune subtree</source>
        <translation>剪枝子树</translation>
    </message>
    <message>
        <location filename="../ui/graph/curation.cpp" line="27"/>
        <source>unprune</source>
        <translation>取消剪枝</translation>
    </message>
    <message>
        <location filename="../ui/graph/curation.cpp" line="28"/>
        <source>unprune subtree</source>
        <translation>取消剪枝子树</translation>
    </message>
    <message>
        <location filename="../ui/graph/curation.cpp" line="29"/>
        <source>pin</source>
        <translation>固定</translation>
    </message>
    <message>
        <location filename="../ui/graph/curation.cpp" line="30"/>
        <source>unpin</source>
        <translation>取消固定</translation>
    </message>
    <message>
        <location filename="../ui/graph/curation.cpp" line="31"/>
        <source>mark cheat</source>
        <translation>标记为作弊</translation>
    </message>
    <message>
        <location filename="../ui/graph/curation.cpp" line="32"/>
        <source>mark invalid</source>
        <translation>标记为无效测量</translation>
    </message>
    <message>
        <location filename="../ui/graph/curation.cpp" line="33"/>
        <source>clear mark</source>
        <translation>清除标记</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/graph/curation.cpp" line="41"/>
        <source>%1 %n Case(s)</source>
        <translation>
            <numerusform>%1 %n 个案例</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>kope::graph::FilterBar</name>
    <message>
        <location filename="../ui/graph/filter_bar.cpp" line="40"/>
        <source>all tasks</source>
        <translation>全部任务</translation>
    </message>
    <message>
        <location filename="../ui/graph/filter_bar.cpp" line="40"/>
        <source>all devices</source>
        <translation>全部设备</translation>
    </message>
    <message>
        <location filename="../ui/graph/filter_bar.cpp" line="40"/>
        <source>all labels</source>
        <translation>全部标签</translation>
    </message>
    <message>
        <location filename="../ui/graph/filter_bar.cpp" line="41"/>
        <source>all ideas</source>
        <translation>全部思路</translation>
    </message>
    <message>
        <location filename="../ui/graph/filter_bar.cpp" line="41"/>
        <source>all runs</source>
        <translation>全部运行</translation>
    </message>
    <message>
        <location filename="../ui/graph/filter_bar.cpp" line="41"/>
        <source>local and foreign</source>
        <translation>本地和外来</translation>
    </message>
    <message>
        <location filename="../ui/graph/filter_bar.cpp" line="47"/>
        <source>local</source>
        <translation>本地</translation>
    </message>
    <message>
        <location filename="../ui/graph/filter_bar.cpp" line="48"/>
        <source>foreign</source>
        <translation>外来</translation>
    </message>
    <message>
        <location filename="../ui/graph/filter_bar.cpp" line="49"/>
        <source>search #id or thought…</source>
        <translation>搜索 #编号或思路…</translation>
    </message>
</context>
<context>
    <name>kope::graph::GraphModel</name>
    <message>
        <location filename="../ui/graph/graph_model.cpp" line="20"/>
        <source>effective</source>
        <translation>有效</translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_model.cpp" line="20"/>
        <source>partial</source>
        <translation>部分有效</translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_model.cpp" line="21"/>
        <source>ineffective</source>
        <translation>无效</translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_model.cpp" line="21"/>
        <source>negative</source>
        <translation>负面</translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_model.cpp" line="22"/>
        <source>incorrect</source>
        <translation>不正确</translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_model.cpp" line="234"/>
        <source>Case</source>
        <translation>案例</translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_model.cpp" line="234"/>
        <source>task</source>
        <translation>任务</translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_model.cpp" line="234"/>
        <source>device</source>
        <translation>设备</translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_model.cpp" line="234"/>
        <source>label</source>
        <translation>标签</translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_model.cpp" line="234"/>
        <source>speedup</source>
        <translation>加速比</translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_model.cpp" line="235"/>
        <source>status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_model.cpp" line="235"/>
        <source>run</source>
        <translation>运行</translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_model.cpp" line="235"/>
        <source>origin</source>
        <translation>来源</translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_model.cpp" line="235"/>
        <source>curation</source>
        <translation>整理</translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_model.cpp" line="235"/>
        <source>thought</source>
        <translation>思路</translation>
    </message>
</context>
<context>
    <name>kope::graph::GraphWidget</name>
    <message>
        <location filename="../ui/graph/graph_widget.cpp" line="81"/>
        <source>Reason (recorded with the act):</source>
        <translation>原因（与操作一同记录）：</translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="221"/>
        <source>╳ hatched: incorrect · </source>
        <translation>╳ 斜线填充：不正确 · </translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="221"/>
        <source>&lt;b style=&apos;color:#ffb300&apos;&gt;★ gold outline&lt;/b&gt;: incumbent · </source>
        <translation>&lt;b style=&apos;color:#ffb300&apos;&gt;★ 金色边框&lt;/b&gt;：当前最优 · </translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="222"/>
        <source>&lt;b style=&apos;color:#555&apos;&gt;✂ faded, dashed&lt;/b&gt;: pruned · </source>
        <translation>&lt;b style=&apos;color:#555&apos;&gt;✂ 淡化、虚线&lt;/b&gt;：已剪枝 · </translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="222"/>
        <source>&lt;b style=&apos;color:#1565c0&apos;&gt;P&lt;/b&gt;: pinned · </source>
        <translation>&lt;b style=&apos;color:#1565c0&apos;&gt;P&lt;/b&gt;：已固定 · </translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="223"/>
        <source>&lt;b style=&apos;color:#b000b0&apos;&gt;C/I dash-dot&lt;/b&gt;: cheat/invalid · </source>
        <translation>&lt;b style=&apos;color:#b000b0&apos;&gt;C/I 点划线&lt;/b&gt;：作弊/无效测量 · </translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="224"/>
        <source>&lt;b style=&apos;color:#008080&apos;&gt;F dotted&lt;/b&gt;: foreign · </source>
        <translation>&lt;b style=&apos;color:#008080&apos;&gt;F 点线&lt;/b&gt;：外来 · </translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="224"/>
        <source>size: d(v)</source>
        <translation>大小：d(v)</translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="225"/>
        <source>Case</source>
        <translation>案例</translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="226"/>
        <source>What the agent was shown</source>
        <translation>智能体看到的内容</translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="227"/>
        <source>Fit</source>
        <translation>适应窗口</translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="228"/>
        <source>Fit the graph (F)</source>
        <translation>使整个图适应窗口 (F)</translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="229"/>
        <source>Zoom in</source>
        <translation>放大</translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="230"/>
        <source>Zoom out</source>
        <translation>缩小</translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="231"/>
        <source>Re-layout</source>
        <translation>重新布局</translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="232"/>
        <source>Lay the graph out again</source>
        <translation>重新计算图的布局</translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="155"/>
        <location filename="../ui/graph/graph_widget_build.cpp" line="162"/>
        <location filename="../ui/graph/graph_widget_build.cpp" line="233"/>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="234"/>
        <source>Save the view as PNG or SVG, or the graph as GraphML</source>
        <translation>将当前视图保存为 PNG 或 SVG，或将整个图保存为 GraphML</translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="236"/>
        <source>View as PNG…</source>
        <translation>视图另存为 PNG…</translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="237"/>
        <source>View as SVG…</source>
        <translation>视图另存为 SVG…</translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="238"/>
        <source>Graph as GraphML…</source>
        <translation>图另存为 GraphML…</translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="239"/>
        <source>Prune…</source>
        <translation>剪枝…</translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="239"/>
        <source>Prune subtree…</source>
        <translation>剪枝子树…</translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="239"/>
        <source>Unprune</source>
        <translation>取消剪枝</translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="240"/>
        <source>Unprune subtree</source>
        <translation>取消剪枝子树</translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="240"/>
        <source>Pin</source>
        <translation>固定</translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="240"/>
        <source>Unpin</source>
        <translation>取消固定</translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="241"/>
        <source>Mark as cheat…</source>
        <translation>标记为作弊…</translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="241"/>
        <source>Mark as invalid measurement…</source>
        <translation>标记为无效测量…</translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="242"/>
        <source>Clear mark</source>
        <translation>清除标记</translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget.cpp" line="380"/>
        <location filename="../ui/graph/graph_widget_build.cpp" line="249"/>
        <source>%1 Cases, %2 shown</source>
        <translation>%1 个案例，显示 %2 个</translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="254"/>
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="254"/>
        <source>Undo %1</source>
        <translation>撤销%1</translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="255"/>
        <source>Redo</source>
        <translation>重做</translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="255"/>
        <source>Redo %1</source>
        <translation>重做%1</translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget_build.cpp" line="160"/>
        <source>Exported %1</source>
        <translation>已导出 %1</translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget.cpp" line="215"/>
        <source>%1 Cases · layout %2 in %3 ms%4</source>
        <translation>%1 个案例 · 布局 %2 用时 %3 ms%4</translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget.cpp" line="216"/>
        <source> (cached)</source>
        <translation>（缓存）</translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget.cpp" line="220"/>
        <source>layout failed: %1</source>
        <translation>布局失败：%1</translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget.cpp" line="196"/>
        <location filename="../ui/graph/graph_widget.cpp" line="279"/>
        <location filename="../ui/graph/graph_widget.cpp" line="310"/>
        <source>could not read the memory: %1</source>
        <translation>无法读取记忆：%1</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/graph/graph_widget.cpp" line="554"/>
        <source>%n match(es) for &quot;%1&quot;</source>
        <translation>
            <numerusform>“%1”有 %n 个匹配</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/graph/graph_widget.cpp" line="621"/>
        <source>%1 %n Case(s)</source>
        <translation>
            <numerusform>%1 %n 个案例</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/graph/graph_widget.cpp" line="630"/>
        <location filename="../ui/graph/graph_widget.cpp" line="637"/>
        <source>Curation</source>
        <translation>整理</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/graph/graph_widget.cpp" line="634"/>
        <source>%1: %n Case(s) changed</source>
        <translation>
            <numerusform>%1：%n 个案例已更改</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>kope::ui::AttemptActions</name>
    <message>
        <location filename="../ui/attempt_actions.cpp" line="188"/>
        <source>Open the attempt (kernel, diff, results, transcript)</source>
        <translation>打开该尝试（内核、差异、结果、对话记录）</translation>
    </message>
    <message>
        <location filename="../ui/attempt_actions.cpp" line="189"/>
        <source>Open its kernel in the editor</source>
        <translation>在编辑器中打开其内核</translation>
    </message>
    <message>
        <location filename="../ui/attempt_actions.cpp" line="190"/>
        <source>Diff against its parent kernel</source>
        <translation>与其父内核的差异</translation>
    </message>
    <message>
        <location filename="../ui/attempt_actions.cpp" line="191"/>
        <source>Its results</source>
        <translation>其结果</translation>
    </message>
    <message>
        <location filename="../ui/attempt_actions.cpp" line="192"/>
        <source>Its LLM transcript</source>
        <translation>其 LLM 对话记录</translation>
    </message>
    <message>
        <location filename="../ui/attempt_actions.cpp" line="193"/>
        <source>Show its Case in the graph</source>
        <translation>在经验图中显示其案例</translation>
    </message>
    <message>
        <location filename="../ui/attempt_actions.cpp" line="194"/>
        <source>Compare with the incumbent</source>
        <translation>与当前最优比较</translation>
    </message>
</context>
<context>
    <name>kope::ui::AttemptModel</name>
    <message>
        <location filename="../ui/models/models.cpp" line="127"/>
        <source>Task</source>
        <translation>任务</translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="128"/>
        <source>Kernel</source>
        <translation>内核</translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="129"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="130"/>
        <source>Speedup</source>
        <translation>加速比</translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="131"/>
        <source>Promoted</source>
        <translation>已晋升</translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="132"/>
        <source>Idea</source>
        <translation>思路</translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="161"/>
        <source>yes</source>
        <translation>是</translation>
    </message>
</context>
<context>
    <name>kope::ui::AttemptPane</name>
    <message>
        <location filename="../ui/views/attempt_pane.cpp" line="73"/>
        <source>Double-click an attempt in the run controller, a Case in the graph or a History row to see everything about it here.</source>
        <translation>双击运行控制器中的尝试、经验图中的案例或历史中的一行，即可在此查看它的全部信息。</translation>
    </message>
    <message>
        <location filename="../ui/views/attempt_pane.cpp" line="77"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location filename="../ui/views/attempt_pane.cpp" line="78"/>
        <source>evaluation %1 (%2)</source>
        <translation>评测 %1（%2）</translation>
    </message>
    <message>
        <location filename="../ui/views/attempt_pane.cpp" line="79"/>
        <source>no evaluation: %1</source>
        <translation>无评测：%1</translation>
    </message>
    <message>
        <location filename="../ui/views/attempt_pane.cpp" line="80"/>
        <source>parent: %1 (evaluation %2)</source>
        <translation>父版本：%1（评测 %2）</translation>
    </message>
    <message>
        <location filename="../ui/views/attempt_pane.cpp" line="81"/>
        <source>parent: %1</source>
        <translation>父版本：%1</translation>
    </message>
    <message>
        <location filename="../ui/views/attempt_pane.cpp" line="82"/>
        <source>Case %1</source>
        <translation>案例 %1</translation>
    </message>
    <message>
        <location filename="../ui/views/attempt_pane.cpp" line="83"/>
        <source>transcript %1</source>
        <translation>对话记录 %1</translation>
    </message>
    <message>
        <location filename="../ui/views/attempt_pane.cpp" line="90"/>
        <source>No diff: the attempt ran no kernel, or its kernel is its parent&apos;s.</source>
        <translation>无差异：该尝试没有运行内核，或其内核与父版本相同。</translation>
    </message>
    <message>
        <location filename="../ui/views/attempt_pane.cpp" line="109"/>
        <source>No results: the attempt ran no evaluation.</source>
        <translation>无结果：该尝试没有运行评测。</translation>
    </message>
    <message>
        <location filename="../ui/views/attempt_pane.cpp" line="110"/>
        <source>No results: %1</source>
        <translation>无结果：%1</translation>
    </message>
    <message>
        <location filename="../ui/views/attempt_pane.cpp" line="115"/>
        <source>Evaluation %1 has no report: %2</source>
        <translation>评测 %1 没有报告：%2</translation>
    </message>
    <message>
        <location filename="../ui/views/attempt_pane.cpp" line="121"/>
        <source>Result: %1</source>
        <translation>结果：%1</translation>
    </message>
    <message>
        <location filename="../ui/views/attempt_pane.cpp" line="122"/>
        <source>Did not compile: %1</source>
        <translation>编译失败：%1</translation>
    </message>
    <message>
        <location filename="../ui/views/attempt_pane.cpp" line="123"/>
        <source>, speedup %1</source>
        <translation>，加速比 %1</translation>
    </message>
    <message>
        <location filename="../ui/views/attempt_pane.cpp" line="128"/>
        <source>Diff against parent</source>
        <translation>与父版本的差异</translation>
    </message>
    <message>
        <location filename="../ui/views/attempt_pane.cpp" line="129"/>
        <source>Results</source>
        <translation>结果</translation>
    </message>
    <message>
        <location filename="../ui/views/attempt_pane.cpp" line="130"/>
        <source>LLM transcript</source>
        <translation>LLM 对话记录</translation>
    </message>
    <message>
        <location filename="../ui/views/attempt_pane.cpp" line="131"/>
        <source>Open kernel in editor</source>
        <translation>在编辑器中打开内核</translation>
    </message>
    <message>
        <location filename="../ui/views/attempt_pane.cpp" line="132"/>
        <source>Show Case in graph</source>
        <translation>在经验图中显示案例</translation>
    </message>
    <message>
        <location filename="../ui/views/attempt_pane.cpp" line="133"/>
        <source>Compare with incumbent</source>
        <translation>与当前最优比较</translation>
    </message>
</context>
<context>
    <name>kope::ui::CaseModel</name>
    <message>
        <location filename="../ui/models/models.cpp" line="39"/>
        <source>Case</source>
        <translation>用例</translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="40"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="41"/>
        <source>Max rel. error</source>
        <translation>最大相对误差</translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="42"/>
        <source>Baseline</source>
        <translation>基线</translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="43"/>
        <source>Kernel</source>
        <translation>内核</translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="44"/>
        <source>Speedup</source>
        <translation>加速比</translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="45"/>
        <source>95% interval</source>
        <translation>95% 区间</translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="46"/>
        <source>Memory floor</source>
        <translation>内存带宽下限</translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="47"/>
        <source>HAP</source>
        <translation>HAP</translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="48"/>
        <source>Message</source>
        <translation>信息</translation>
    </message>
</context>
<context>
    <name>kope::ui::CasesPane</name>
    <message>
        <location filename="../ui/views/cases_pane.cpp" line="90"/>
        <source>Output</source>
        <translation>输出</translation>
    </message>
    <message>
        <location filename="../ui/views/cases_pane.cpp" line="91"/>
        <source>Mean rel. error</source>
        <translation>平均相对误差</translation>
    </message>
    <message>
        <location filename="../ui/views/cases_pane.cpp" line="92"/>
        <source>Max rel. error</source>
        <translation>最大相对误差</translation>
    </message>
    <message>
        <location filename="../ui/views/cases_pane.cpp" line="93"/>
        <source>Limit</source>
        <translation>限值</translation>
    </message>
    <message>
        <location filename="../ui/views/cases_pane.cpp" line="94"/>
        <source>Worst at</source>
        <translation>最差位置</translation>
    </message>
    <message>
        <location filename="../ui/views/cases_pane.cpp" line="95"/>
        <source>Expected</source>
        <translation>期望值</translation>
    </message>
    <message>
        <location filename="../ui/views/cases_pane.cpp" line="96"/>
        <source>Got</source>
        <translation>实际值</translation>
    </message>
    <message>
        <location filename="../ui/views/cases_pane.cpp" line="100"/>
        <source>Correctness call</source>
        <translation>正确性调用</translation>
    </message>
    <message>
        <location filename="../ui/views/cases_pane.cpp" line="101"/>
        <source>Last timed call</source>
        <translation>最后一次计时调用</translation>
    </message>
    <message>
        <location filename="../ui/views/cases_pane.cpp" line="103"/>
        <source>Baseline median</source>
        <translation>基线中位数</translation>
    </message>
    <message>
        <location filename="../ui/views/cases_pane.cpp" line="103"/>
        <source>kernel median</source>
        <translation>内核中位数</translation>
    </message>
    <message>
        <location filename="../ui/views/cases_pane.cpp" line="104"/>
        <source>speedup</source>
        <translation>加速比</translation>
    </message>
    <message>
        <location filename="../ui/views/cases_pane.cpp" line="107"/>
        <source>Runner log</source>
        <translation>运行器日志</translation>
    </message>
</context>
<context>
    <name>kope::ui::CompareModel</name>
    <message>
        <location filename="../ui/models/models.cpp" line="241"/>
        <source>Case</source>
        <translation>用例</translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="242"/>
        <source>A status</source>
        <translation>A 状态</translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="243"/>
        <source>B status</source>
        <translation>B 状态</translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="244"/>
        <source>A median</source>
        <translation>A 中位数</translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="245"/>
        <source>B median</source>
        <translation>B 中位数</translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="246"/>
        <source>B over A</source>
        <translation>B 相对 A</translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="247"/>
        <source>95% interval</source>
        <translation>95% 区间</translation>
    </message>
</context>
<context>
    <name>kope::ui::ComparePane</name>
    <message>
        <location filename="../ui/views/compare_pane.cpp" line="88"/>
        <source>Pick two versions in History (or one and the incumbent) to compare them.</source>
        <translation>在“历史”中选择两个版本（或一个版本与当前最优）进行比较。</translation>
    </message>
    <message>
        <location filename="../ui/views/compare_pane.cpp" line="89"/>
        <source>A</source>
        <translation>A</translation>
    </message>
    <message>
        <location filename="../ui/views/compare_pane.cpp" line="90"/>
        <source>B</source>
        <translation>B</translation>
    </message>
    <message>
        <location filename="../ui/views/compare_pane.cpp" line="91"/>
        <location filename="../ui/views/compare_pane.cpp" line="110"/>
        <source>B over A, per case</source>
        <translation>各用例 B 相对 A 的加速比</translation>
    </message>
    <message>
        <location filename="../ui/views/compare_pane.cpp" line="94"/>
        <source>A: evaluation %1 (%2) · B: evaluation %3 (%4) · B over A: %5</source>
        <translation>A：评测 %1（%2）· B：评测 %3（%4）· B 相对 A：%5</translation>
    </message>
    <message>
        <location filename="../ui/views/compare_pane.cpp" line="99"/>
        <source>(different tasks)</source>
        <translation>（不同任务）</translation>
    </message>
    <message>
        <location filename="../ui/views/compare_pane.cpp" line="100"/>
        <source>A: evaluation %1, %2</source>
        <translation>A：评测 %1，%2</translation>
    </message>
    <message>
        <location filename="../ui/views/compare_pane.cpp" line="101"/>
        <source>B: evaluation %1, %2</source>
        <translation>B：评测 %1，%2</translation>
    </message>
    <message>
        <location filename="../ui/views/compare_pane.cpp" line="110"/>
        <source>B over A</source>
        <translation>B 相对 A</translation>
    </message>
    <message>
        <location filename="../ui/views/compare_pane.cpp" line="111"/>
        <source>A median / B median</source>
        <translation>A 中位数 / B 中位数</translation>
    </message>
</context>
<context>
    <name>kope::ui::CompilePane</name>
    <message>
        <location filename="../ui/views/compile_pane.cpp" line="42"/>
        <source>Compiling %1 ...</source>
        <translation>正在编译 %1 ...</translation>
    </message>
    <message>
        <location filename="../ui/views/compile_pane.cpp" line="89"/>
        <source>compiled (cached build, no compiler run)</source>
        <translation>已编译（使用缓存，未运行编译器）</translation>
    </message>
    <message>
        <location filename="../ui/views/compile_pane.cpp" line="89"/>
        <source>compiled in %1</source>
        <translation>已编译，用时 %1</translation>
    </message>
    <message>
        <location filename="../ui/views/compile_pane.cpp" line="91"/>
        <source>did not compile (%1): %2</source>
        <translation>编译失败（%1）：%2</translation>
    </message>
</context>
<context>
    <name>kope::ui::DiagnosticModel</name>
    <message>
        <location filename="../ui/models/models.cpp" line="96"/>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="97"/>
        <source>Line</source>
        <translation>行</translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="98"/>
        <source>Column</source>
        <translation>列</translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="99"/>
        <source>Severity</source>
        <translation>级别</translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="100"/>
        <source>Message</source>
        <translation>信息</translation>
    </message>
</context>
<context>
    <name>kope::ui::DoctorDialog</name>
    <message>
        <location filename="../ui/doctor/doctor_dialog.cpp" line="70"/>
        <source>Checking this machine...</source>
        <translation>正在检查本机...</translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_dialog.cpp" line="98"/>
        <source>The checks failed: %1</source>
        <translation>检查失败：%1</translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_dialog.cpp" line="100"/>
        <source>Verdicts on this machine are trustworthy because:</source>
        <translation>本机上的评判结果可信，因为：</translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_dialog.cpp" line="102"/>
        <source>Verdicts on this machine are weakened because:</source>
        <translation>本机上的评判结果可信度降低，因为：</translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_dialog.cpp" line="104"/>
        <source>(nothing found)</source>
        <translation>（未发现问题）</translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_dialog.cpp" line="105"/>
        <source>kope cannot give verdicts here until the failed checks are fixed.</source>
        <translation>在修复失败的检查项之前，kope 无法在此给出评判结果。</translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_dialog.cpp" line="110"/>
        <source>Machine check</source>
        <translation>本机检查</translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_dialog.cpp" line="111"/>
        <source>What this machine gives kope, as `kope doctor` reports it: each check with its verdict and what to do.</source>
        <translation>本机为 kope 提供的条件（与 `kope doctor` 的报告相同）：每项检查的结论及处理建议。</translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_dialog.cpp" line="113"/>
        <source>&amp;Refresh</source>
        <translation>刷新(&amp;R)</translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_dialog.cpp" line="114"/>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_dialog.cpp" line="115"/>
        <source>%1 checks run.</source>
        <translation>已运行 %1 项检查。</translation>
    </message>
</context>
<context>
    <name>kope::ui::DoctorModel</name>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="26"/>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="28"/>
        <source>ok</source>
        <translation>正常</translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="29"/>
        <source>info</source>
        <translation>提示</translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="30"/>
        <source>warn</source>
        <translation>警告</translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="31"/>
        <source>fail</source>
        <translation>失败</translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="38"/>
        <source>C++ compiler</source>
        <translation>C++ 编译器</translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="39"/>
        <source>Library baseline (ATen)</source>
        <translation>库基线（ATen）</translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="40"/>
        <source>User namespaces</source>
        <translation>用户命名空间</translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="41"/>
        <source>Bubblewrap (namespaces)</source>
        <translation>Bubblewrap（命名空间）</translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="42"/>
        <source>Seccomp filter</source>
        <translation>Seccomp 过滤器</translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="43"/>
        <source>Exact CPU clock on workers (perf task-clock)</source>
        <translation>工作进程的精确 CPU 时钟（perf task-clock）</translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="44"/>
        <source>Cgroups (whole-tree limits)</source>
        <translation>Cgroups（整个进程树的限制）</translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="45"/>
        <source>Cache sizes for the flush</source>
        <translation>缓存刷新所依据的缓存大小</translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="46"/>
        <source>Timer resolution</source>
        <translation>计时器分辨率</translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="47"/>
        <source>CPU frequency governor</source>
        <translation>CPU 调频策略</translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="48"/>
        <source>Turbo / boost</source>
        <translation>睿频 / 加速</translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="49"/>
        <source>Isolated cores</source>
        <translation>隔离的核心</translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="50"/>
        <source>SMT (hyper-threading)</source>
        <translation>SMT（超线程）</translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="51"/>
        <source>Load at the time</source>
        <translation>当前负载</translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="52"/>
        <source>Devices</source>
        <translation>设备</translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="58"/>
        <source>Verdict</source>
        <translation>结论</translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="59"/>
        <source>Check</source>
        <translation>检查项</translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="60"/>
        <source>Found</source>
        <translation>检测结果</translation>
    </message>
    <message>
        <location filename="../ui/doctor/doctor_model.cpp" line="61"/>
        <source>What to do</source>
        <translation>处理建议</translation>
    </message>
</context>
<context>
    <name>kope::ui::HistoryModel</name>
    <message>
        <location filename="../ui/models/models.cpp" line="171"/>
        <source>Id</source>
        <translation>编号</translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="172"/>
        <source>Task</source>
        <translation>任务</translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="173"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="174"/>
        <source>Speedup</source>
        <translation>加速比</translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="175"/>
        <source>Started</source>
        <translation>开始时间</translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="176"/>
        <source>Kernel</source>
        <translation>内核</translation>
    </message>
</context>
<context>
    <name>kope::ui::HistoryPane</name>
    <message>
        <location filename="../ui/views/history_pane.cpp" line="99"/>
        <source>Restore this version</source>
        <translation>恢复此版本</translation>
    </message>
    <message>
        <location filename="../ui/views/history_pane.cpp" line="100"/>
        <source>Bring this kernel version and its results back into the editor</source>
        <translation>将此内核版本及其结果恢复到编辑器</translation>
    </message>
    <message>
        <location filename="../ui/views/history_pane.cpp" line="101"/>
        <source>Compare the two selected</source>
        <translation>比较所选的两个版本</translation>
    </message>
    <message>
        <location filename="../ui/views/history_pane.cpp" line="102"/>
        <source>Compare with the incumbent</source>
        <translation>与当前最优比较</translation>
    </message>
    <message>
        <location filename="../ui/views/history_pane.cpp" line="103"/>
        <source>Fork a run from here</source>
        <translation>从此版本分叉运行</translation>
    </message>
</context>
<context>
    <name>kope::ui::InFlightModel</name>
    <message>
        <location filename="../ui/models/run_models.cpp" line="27"/>
        <source>Task</source>
        <translation>任务</translation>
    </message>
    <message>
        <location filename="../ui/models/run_models.cpp" line="28"/>
        <source>Phase</source>
        <translation>阶段</translation>
    </message>
    <message>
        <location filename="../ui/models/run_models.cpp" line="29"/>
        <source>Attempt</source>
        <translation>尝试</translation>
    </message>
    <message>
        <location filename="../ui/models/run_models.cpp" line="30"/>
        <source>Last status</source>
        <translation>最近状态</translation>
    </message>
    <message>
        <location filename="../ui/models/run_models.cpp" line="31"/>
        <source>Incumbent</source>
        <translation>当前最优</translation>
    </message>
    <message>
        <location filename="../ui/models/run_models.cpp" line="32"/>
        <source>Tokens</source>
        <translation>Token</translation>
    </message>
    <message>
        <location filename="../ui/models/run_models.cpp" line="58"/>
        <source>%1 (stopping)</source>
        <translation>%1（正在停止）</translation>
    </message>
    <message>
        <location filename="../ui/models/run_models.cpp" line="59"/>
        <source>%1 (pause asked)</source>
        <translation>%1（已请求暂停）</translation>
    </message>
    <message>
        <location filename="../ui/models/run_models.cpp" line="60"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location filename="../ui/models/run_models.cpp" line="63"/>
        <source>%1/%2</source>
        <translation>%1/%2</translation>
    </message>
    <message>
        <location filename="../ui/models/run_models.cpp" line="65"/>
        <source>baseline</source>
        <translation>基线</translation>
    </message>
</context>
<context>
    <name>kope::ui::LiveReplyModel</name>
    <message>
        <location filename="../ui/models/live_models.cpp" line="16"/>
        <source>Task</source>
        <translation>任务</translation>
    </message>
    <message>
        <location filename="../ui/models/live_models.cpp" line="17"/>
        <source>Attempt</source>
        <translation>尝试</translation>
    </message>
    <message>
        <location filename="../ui/models/live_models.cpp" line="18"/>
        <source>Reply</source>
        <translation>回复</translation>
    </message>
    <message>
        <location filename="../ui/models/live_models.cpp" line="19"/>
        <source>Tokens in</source>
        <translation>输入 token</translation>
    </message>
    <message>
        <location filename="../ui/models/live_models.cpp" line="20"/>
        <source>Tokens out</source>
        <translation>输出 token</translation>
    </message>
    <message>
        <location filename="../ui/models/live_models.cpp" line="21"/>
        <source>Cost</source>
        <translation>费用</translation>
    </message>
    <message>
        <location filename="../ui/models/live_models.cpp" line="22"/>
        <source>Time</source>
        <translation>用时</translation>
    </message>
    <message>
        <location filename="../ui/models/live_models.cpp" line="39"/>
        <source>%1%2 in · %1%3 out</source>
        <translation>输入 %1%2 · 输出 %1%3</translation>
    </message>
    <message>
        <location filename="../ui/models/live_models.cpp" line="43"/>
        <source>no price set</source>
        <translation>未设置价格</translation>
    </message>
</context>
<context>
    <name>kope::ui::LiveReplyPane</name>
    <message>
        <location filename="../ui/views/live_reply_pane.cpp" line="181"/>
        <source>No prompt yet</source>
        <translation>尚无提示词</translation>
    </message>
    <message>
        <location filename="../ui/views/live_reply_pane.cpp" line="189"/>
        <source>The prompt of attempt %1 on %2, by tier</source>
        <translation>%2 第 %1 次尝试的提示词（按层级）</translation>
    </message>
    <message>
        <location filename="../ui/views/live_reply_pane.cpp" line="228"/>
        <source>No LLM attempt yet: the model&apos;s reply streams in here once a run&apos;s policy asks a model.</source>
        <translation>尚无 LLM 尝试：运行的策略向模型提问后，模型的回复会在此流式显示。</translation>
    </message>
    <message>
        <location filename="../ui/views/live_reply_pane.cpp" line="231"/>
        <source>Reasoning</source>
        <translation>推理过程</translation>
    </message>
    <message>
        <location filename="../ui/views/live_reply_pane.cpp" line="237"/>
        <source>: %1</source>
        <translation>：%1</translation>
    </message>
    <message>
        <location filename="../ui/views/live_reply_pane.cpp" line="238"/>
        <source>%1 · attempt %2 · %3 — %4</source>
        <translation>%1 · 第 %2 次尝试 · %3 — %4</translation>
    </message>
    <message>
        <location filename="../ui/views/live_reply_pane.cpp" line="239"/>
        <source>Tokens %1 · cost %2 · time %3</source>
        <translation>Token %1 · 费用 %2 · 用时 %3</translation>
    </message>
    <message>
        <location filename="../ui/views/live_reply_pane.cpp" line="246"/>
        <source>Reasoning: %1 characters</source>
        <translation>推理过程：%1 个字符</translation>
    </message>
    <message>
        <location filename="../ui/views/live_reply_pane.cpp" line="247"/>
        <source>Reasoning (none reported apart from the answer)</source>
        <translation>推理过程（未与回答分开报告）</translation>
    </message>
    <message>
        <location filename="../ui/views/live_reply_pane.cpp" line="253"/>
        <source>The model&apos;s reasoning (reasoning_content or thinking), kept apart from the answer</source>
        <translation>模型的推理过程（reasoning_content 或 thinking），与回答分开显示</translation>
    </message>
    <message>
        <location filename="../ui/views/live_reply_pane.cpp" line="254"/>
        <source>The answer streams in here.</source>
        <translation>回答会在此流式显示。</translation>
    </message>
</context>
<context>
    <name>kope::ui::LlmSettingsDialog</name>
    <message>
        <location filename="../ui/llm/llm_settings_dialog.cpp" line="42"/>
        <source>API key of %1</source>
        <translation>%1 的 API 密钥</translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_dialog.cpp" line="43"/>
        <source>The key, kept in %1 (never in the settings file):</source>
        <translation>密钥，保存在%1中（绝不写入设置文件）：</translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_dialog.cpp" line="169"/>
        <source>LLM profiles</source>
        <translation>LLM 配置</translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_dialog.cpp" line="170"/>
        <source>Settings file (the one `kope run --policy llm` reads): %1</source>
        <translation>设置文件（即 `kope run --policy llm` 读取的文件）：%1</translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_dialog.cpp" line="171"/>
        <source>Move the keys to the keychain</source>
        <translation>把密钥移入密钥环</translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_dialog.cpp" line="172"/>
        <source>&amp;Add profile</source>
        <translation>添加配置(&amp;A)</translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_dialog.cpp" line="173"/>
        <source>&amp;Delete profile</source>
        <translation>删除配置(&amp;D)</translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_dialog.cpp" line="174"/>
        <source>Make de&amp;fault</source>
        <translation>设为默认(&amp;F)</translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_dialog.cpp" line="175"/>
        <source>&lt;b&gt;API key&lt;/b&gt;</source>
        <translation>&lt;b&gt;API 密钥&lt;/b&gt;</translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_dialog.cpp" line="176"/>
        <source>Store a key in the keychain…</source>
        <translation>在密钥环中保存密钥…</translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_dialog.cpp" line="177"/>
        <source>Remove the key from the keychain</source>
        <translation>从密钥环中删除密钥</translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_dialog.cpp" line="178"/>
        <location filename="../ui/llm/llm_settings_keys.cpp" line="150"/>
        <source>Cancel the test</source>
        <translation>取消测试</translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_dialog.cpp" line="178"/>
        <location filename="../ui/llm/llm_settings_keys.cpp" line="135"/>
        <location filename="../ui/llm/llm_settings_keys.cpp" line="175"/>
        <source>&amp;Test connection</source>
        <translation>测试连接(&amp;T)</translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_dialog.cpp" line="179"/>
        <source>Send one tiny request with this profile as the form holds it (unsaved edits included)</source>
        <translation>按表单中的配置（含未保存的修改）发送一个极小的请求</translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_dialog.cpp" line="181"/>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_dialog.cpp" line="182"/>
        <source>&amp;Close</source>
        <translation>关闭(&amp;C)</translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_dialog.cpp" line="200"/>
        <source>%1 (default)</source>
        <translation>%1（默认）</translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_dialog.cpp" line="218"/>
        <source>Looking in %1…</source>
        <translation>正在查找%1…</translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_dialog.cpp" line="242"/>
        <source>Not renamed: %1</source>
        <translation>未改名：%1</translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_dialog.cpp" line="272"/>
        <source>Delete the profile %1? Its key in %2 goes too once the file is saved.</source>
        <translation>删除配置 %1？保存文件后，它在%2中的密钥也会删除。</translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_dialog.cpp" line="300"/>
        <source>The settings file cannot be edited here until it is fixed by hand: %1</source>
        <translation>设置文件需先手工修复才能在此编辑：%1</translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_dialog.cpp" line="311"/>
        <source>%1 (kept as it is; the command line refuses the file until it goes)</source>
        <translation>%1（原样保留；在去掉之前命令行会拒绝该文件）</translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_dialog.cpp" line="340"/>
        <source>Not saved: %1</source>
        <translation>未保存：%1</translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_dialog.cpp" line="364"/>
        <source>The LLM profiles have unsaved changes. Save them?</source>
        <translation>LLM 配置有未保存的修改。要保存吗？</translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_keys.cpp" line="40"/>
        <source>Stored in %1; sent in place of $%2.</source>
        <translation>已保存在%1中；发送时代替 $%2。</translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_keys.cpp" line="42"/>
        <source>read from $%1, which is set</source>
        <translation>从已设置的 $%1 读取</translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_keys.cpp" line="43"/>
        <source>$%1 is not set: none is sent (a server on this machine may need none)</source>
        <translation>$%1 未设置：不发送密钥（本机上的服务器可能不需要）</translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_keys.cpp" line="44"/>
        <source>$%1 is not set: store a key, or set the variable</source>
        <translation>$%1 未设置：请保存密钥或设置该变量</translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_keys.cpp" line="45"/>
        <source>Not in %1; %2.</source>
        <translation>不在%1中；%2。</translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_keys.cpp" line="47"/>
        <source>%1 cannot be reached; %2.</source>
        <translation>无法访问%1；%2。</translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_keys.cpp" line="50"/>
        <source>The settings file holds a key for this profile: move it to the keychain (above).</source>
        <translation>设置文件中存有此配置的密钥：请把它移入密钥环（见上方）。</translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_keys.cpp" line="62"/>
        <source>Not stored in %1: %2</source>
        <translation>未保存到%1：%2</translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_keys.cpp" line="71"/>
        <source>Not removed from %1: %2</source>
        <translation>未从%1删除：%2</translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_keys.cpp" line="84"/>
        <source>The settings file holds API keys (profiles %1). Keys are kept in the system keychain or an environment variable, never in the file: the command line refuses it as it is.</source>
        <translation>设置文件中存有 API 密钥（配置 %1）。密钥应保存在系统密钥环或环境变量中，绝不放在文件里：命令行会拒绝现在这个文件。</translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_keys.cpp" line="107"/>
        <source>The keys are in the keychain, but the file was not saved: %1</source>
        <translation>密钥已在密钥环中，但文件未能保存：%1</translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_keys.cpp" line="119"/>
        <source>Not moved: %1 cannot store the key of %2 (%3). The file is unchanged.</source>
        <translation>未移动：%1无法保存 %2 的密钥（%3）。文件未改动。</translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_keys.cpp" line="136"/>
        <source>Test cancelled.</source>
        <translation>测试已取消。</translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_keys.cpp" line="145"/>
        <source>Fix the profile first: %1</source>
        <translation>请先修正配置：%1</translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_keys.cpp" line="152"/>
        <source>Reading the key…</source>
        <translation>正在读取密钥…</translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_keys.cpp" line="170"/>
        <source>Sending one request to %1…</source>
        <translation>正在向 %1 发送一个请求…</translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_keys.cpp" line="177"/>
        <source>as the server counted them</source>
        <translation>服务器计数</translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_keys.cpp" line="177"/>
        <source>estimated: the server sent no usage</source>
        <translation>估算：服务器未返回用量</translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_keys.cpp" line="178"/>
        <source>Connected. Model %1 answered in %2 s: &quot;%3&quot;
Tokens: %4 in, %5 out (%6).</source>
        <translation>已连接。模型 %1 在 %2 秒内回答：“%3”
令牌：输入 %4，输出 %5（%6）。</translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_keys.cpp" line="179"/>
        <source>%1 (the server did not name it)</source>
        <translation>%1（服务器未给出名称）</translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_keys.cpp" line="185"/>
        <source>Cost: %1</source>
        <translation>费用：%1</translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_keys.cpp" line="189"/>
        <source>Failed: HTTP %1 (%2).</source>
        <translation>失败：HTTP %1（%2）。</translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_keys.cpp" line="190"/>
        <source>Failed.</source>
        <translation>失败。</translation>
    </message>
    <message>
        <location filename="../ui/llm/llm_settings_keys.cpp" line="191"/>
        <source>Failed (%1, no HTTP answer).</source>
        <translation>失败（%1，没有 HTTP 应答）。</translation>
    </message>
</context>
<context>
    <name>kope::ui::MainWindow</name>
    <message>
        <location filename="../ui/main_window_build.cpp" line="422"/>
        <source>Tasks</source>
        <translation>任务</translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="432"/>
        <source>Task</source>
        <translation>任务</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="222"/>
        <location filename="../ui/main_window_build.cpp" line="425"/>
        <source>Cases</source>
        <translation>用例</translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="428"/>
        <source>Chart</source>
        <translation>图表</translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="429"/>
        <source>History</source>
        <translation>历史</translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="431"/>
        <source>Attempt</source>
        <translation>尝试</translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="433"/>
        <source>Study</source>
        <translation>研究</translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="434"/>
        <source>Open s&amp;tudy...</source>
        <translation>打开研究(&amp;T)...</translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="435"/>
        <source>The arms of a `kope study` side by side: pass rate, fast_1, speedup, score, tokens and time per level</source>
        <translation>并排显示 `kope study` 的各组：每个级别的通过率、fast_1、加速比、得分、令牌数和用时</translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="436"/>
        <source>&amp;Open kernel...</source>
        <translation>打开内核(&amp;O)...</translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="437"/>
        <source>&amp;Save kernel</source>
        <translation>保存内核(&amp;S)</translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="443"/>
        <source>&amp;Evaluate</source>
        <translation>评测(&amp;E)</translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="444"/>
        <source>Compile, check against the fp64 golden and time against the baseline (Ctrl+R)</source>
        <translation>编译，与 fp64 标准输出比对，并与基线对比计时 (Ctrl+R)</translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="447"/>
        <source>Load</source>
        <translation>载入</translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="448"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="451"/>
        <source> Shipped kernels: </source>
        <translation> 内置内核： </translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="452"/>
        <source> Warm-ups: </source>
        <translation> 预热次数： </translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="453"/>
        <source> Timed runs: </source>
        <translation> 计时次数： </translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="454"/>
        <source> Timeout (s): </source>
        <translation> 超时（秒）： </translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="455"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="456"/>
        <source>&amp;Kernel</source>
        <translation>内核(&amp;K)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="215"/>
        <location filename="../ui/main_window_build.cpp" line="472"/>
        <source>No evaluation yet. Write or load a kernel and press Evaluate.</source>
        <translation>尚无评测。请编写或载入一个内核，然后点击“评测”。</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="233"/>
        <source>Reference</source>
        <translation>参考实现</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="255"/>
        <source>Opened %1</source>
        <translation>已打开 %1</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="246"/>
        <location filename="../ui/main_window.cpp" line="307"/>
        <source>Open kernel</source>
        <translation>打开内核</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="308"/>
        <source>C++ sources (*.cpp *.cc *.cxx *.c);;All files (*)</source>
        <translation>C++ 源文件 (*.cpp *.cc *.cxx *.c);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="66"/>
        <location filename="../ui/main_window.cpp" line="338"/>
        <source>Save kernel</source>
        <translation>保存内核</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="54"/>
        <source>Unsaved changes</source>
        <translation>未保存的修改</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="66"/>
        <source>C++ sources (*.cpp)</source>
        <translation>C++ 源文件 (*.cpp)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="80"/>
        <source>Evaluation cancelled. It is recorded in the workspace; its results are not shown.</source>
        <translation>评测已取消。它已记录在工作区中；其结果不会显示。</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="82"/>
        <source>Evaluation cancelled</source>
        <translation>评测已取消</translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="90"/>
        <source>The kernel has unsaved changes. Save them before switching to task %1?</source>
        <translation>内核有未保存的修改。切换到任务 %1 之前要保存吗？</translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="165"/>
        <source>The kernel has unsaved changes. Save them before the held candidate replaces them?</source>
        <translation>内核有未保存的修改。在等待批准的候选替换它们之前要保存吗？</translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="169"/>
        <source>Candidate %1 is held for approval: edit it here, then Approve or Reject in the run controller.</source>
        <translation>候选 %1 正在等待批准：可在此编辑，然后在运行控制器中批准或拒绝。</translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="174"/>
        <source>The candidate went on to the loop as it stands in the editor (or was rejected); its attempt appears in the run controller.</source>
        <translation>候选已按编辑器中的内容交给循环（或已被拒绝）；其尝试显示在运行控制器中。</translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="423"/>
        <source>Run controller</source>
        <translation>运行控制器</translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="424"/>
        <source>Experience graph</source>
        <translation>经验图</translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="211"/>
        <source>The kernel has unsaved changes. Save them before opening this Case&apos;s kernel?</source>
        <translation>内核有未保存的修改。在打开此案例的内核之前要保存吗？</translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="213"/>
        <source>A kernel from the experience graph: evaluate it to see its results here.</source>
        <translation>来自经验图的内核：评估它即可在此查看结果。</translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="290"/>
        <source>Open a study folder</source>
        <translation>打开研究文件夹</translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="426"/>
        <source>Compile</source>
        <translation>编译</translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="427"/>
        <source>Profile</source>
        <translation>性能剖析</translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="430"/>
        <source>Compare</source>
        <translation>比较</translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="445"/>
        <source>&amp;Cancel evaluation</source>
        <translation>取消评测(&amp;C)</translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="446"/>
        <source>Stop the running evaluation (Esc)</source>
        <translation>停止正在运行的评测 (Esc)</translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="449"/>
        <source>&amp;Machine check...</source>
        <translation>本机检查(&amp;M)...</translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="450"/>
        <source>What this machine gives kope: compiler, library baseline, sandbox, timing conditions, devices (kope doctor)</source>
        <translation>本机为 kope 提供的条件：编译器、库基线、沙箱、计时条件、设备（kope doctor）</translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="457"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="459"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="137"/>
        <source>The kernel has unsaved changes. Save them before quitting?</source>
        <translation>内核有未保存的修改。退出前要保存吗？</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="165"/>
        <location filename="../ui/main_window.cpp" line="317"/>
        <source>untitled.cpp</source>
        <translation>untitled.cpp</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="167"/>
        <source>%1[*]%2 — Kope Workbench</source>
        <translation>%1[*]%2 — Kope 工作台</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="194"/>
        <source>the editor has changed since this evaluation</source>
        <translation>编辑器内容自此次评测后已更改</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="242"/>
        <source>The kernel has unsaved changes. Save them before opening %1?</source>
        <translation>内核有未保存的修改。打开 %1 之前要保存吗？</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="264"/>
        <source>The kernel has unsaved changes. Save them before loading %1?</source>
        <translation>内核有未保存的修改。加载 %1 之前要保存吗？</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="276"/>
        <location filename="../ui/main_window.cpp" line="283"/>
        <source>The kernel has unsaved changes. Save them before restoring evaluation %1?</source>
        <translation>内核有未保存的修改。恢复评测 %1 之前要保存吗？</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="300"/>
        <source>Evaluation %1 has no report: %2</source>
        <translation>评测 %1 没有报告：%2</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="302"/>
        <source>Restored evaluation %1 (kernel version %2)</source>
        <translation>已恢复评测 %1（内核版本 %2）</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="336"/>
        <source>Cannot write the kernel file %1: %2</source>
        <translation>无法写入内核文件 %1：%2</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="344"/>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="378"/>
        <source>Select a task first.</source>
        <translation>请先选择一个任务。</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="383"/>
        <source>The kernel is empty: write one or load a shipped kernel.</source>
        <translation>内核为空：请编写一个或载入内置内核。</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="392"/>
        <source>Evaluating %1 on %2...</source>
        <translation>正在 %2 上评测 %1...</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="415"/>
        <source>%1 case %2 of %3 (%4)</source>
        <translation>%1 第 %2/%3 个用例（%4）</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="423"/>
        <source>%1: %2 of %3 done (%4)</source>
        <translation>%1：已完成 %2/%3（%4）</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="444"/>
        <source>Did not compile: %1</source>
        <translation>编译失败：%1</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="452"/>
        <source>Result: %1</source>
        <translation>结果：%1</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="453"/>
        <source>, speedup %1 (geometric mean over %2 cases)</source>
        <translation>，加速比 %1（%2 个用例的几何平均）</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="454"/>
        <source>, score %1</source>
        <translation>，得分 %1</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="455"/>
        <source>Warning: %1</source>
        <translation>警告：%1</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="493"/>
        <source>Error: %1</source>
        <translation>错误：%1</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="502"/>
        <source>Cannot open the study</source>
        <translation>无法打开该研究</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="510"/>
        <source>Working...</source>
        <translation>运行中...</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="510"/>
        <source>Idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="438"/>
        <source>Save kernel &amp;as...</source>
        <translation>内核另存为(&amp;A)...</translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="439"/>
        <source>Com&amp;pile</source>
        <translation>编译(&amp;P)</translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="440"/>
        <source>Build the kernel and mark its diagnostics; nothing is recorded (Ctrl+B)</source>
        <translation>构建内核并标出诊断信息；不记录任何内容 (Ctrl+B)</translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="441"/>
        <source>&amp;LLM profiles...</source>
        <translation>LLM 配置(&amp;L)...</translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="442"/>
        <source>The models the agent can use: profiles of the settings file, keys in the system keychain, a connection test</source>
        <translation>智能体可用的模型：设置文件中的配置、系统密钥环中的密钥、连接测试</translation>
    </message>
    <message>
        <location filename="../ui/main_window_build.cpp" line="458"/>
        <source>&amp;Settings</source>
        <translation>设置(&amp;S)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="472"/>
        <source>It compiles (%1 s). Nothing was recorded: Evaluate tests and times it.</source>
        <translation>可以编译（%1 秒）。未记录任何内容：评测会测试并计时。</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="475"/>
        <source>Did not compile: %1
Not recorded: a kernel typed here that does not build is no attempt, so it makes no evaluation and no Case in the memory.</source>
        <translation>未能编译：%1
未记录：在此手写且无法构建的内核不算一次尝试，因此不产生评测，也不在记忆中产生案例。</translation>
    </message>
</context>
<context>
    <name>kope::ui::ProfileForm</name>
    <message>
        <location filename="../ui/llm/profile_form.cpp" line="148"/>
        <source>OpenAI-compatible (Chat Completions API)</source>
        <translation>OpenAI 兼容（Chat Completions API）</translation>
    </message>
    <message>
        <location filename="../ui/llm/profile_form.cpp" line="149"/>
        <source>Anthropic (Messages API)</source>
        <translation>Anthropic（Messages API）</translation>
    </message>
    <message>
        <location filename="../ui/llm/profile_form.cpp" line="150"/>
        <source>&amp;Name</source>
        <translation>名称(&amp;N)</translation>
    </message>
    <message>
        <location filename="../ui/llm/profile_form.cpp" line="151"/>
        <source>&amp;Protocol</source>
        <translation>协议(&amp;P)</translation>
    </message>
    <message>
        <location filename="../ui/llm/profile_form.cpp" line="152"/>
        <source>&amp;Base URL</source>
        <translation>基础 URL(&amp;B)</translation>
    </message>
    <message>
        <location filename="../ui/llm/profile_form.cpp" line="153"/>
        <source>&amp;Model</source>
        <translation>模型(&amp;M)</translation>
    </message>
    <message>
        <location filename="../ui/llm/profile_form.cpp" line="154"/>
        <source>Context window (tokens)</source>
        <translation>上下文窗口（令牌）</translation>
    </message>
    <message>
        <location filename="../ui/llm/profile_form.cpp" line="155"/>
        <source>Output tokens at most</source>
        <translation>最多输出令牌</translation>
    </message>
    <message>
        <location filename="../ui/llm/profile_form.cpp" line="156"/>
        <source>Temperature</source>
        <translation>温度</translation>
    </message>
    <message>
        <location filename="../ui/llm/profile_form.cpp" line="157"/>
        <source>Price in (per million tokens)</source>
        <translation>输入价格（每百万令牌）</translation>
    </message>
    <message>
        <location filename="../ui/llm/profile_form.cpp" line="158"/>
        <source>Price out (per million tokens)</source>
        <translation>输出价格（每百万令牌）</translation>
    </message>
    <message>
        <location filename="../ui/llm/profile_form.cpp" line="159"/>
        <source>Requests at once</source>
        <translation>同时请求数</translation>
    </message>
    <message>
        <location filename="../ui/llm/profile_form.cpp" line="160"/>
        <source>Connect timeout (s)</source>
        <translation>连接超时（秒）</translation>
    </message>
    <message>
        <location filename="../ui/llm/profile_form.cpp" line="161"/>
        <source>Stalled stream dropped after (s)</source>
        <translation>流停滞多久后断开（秒）</translation>
    </message>
    <message>
        <location filename="../ui/llm/profile_form.cpp" line="162"/>
        <source>Retries</source>
        <translation>重试次数</translation>
    </message>
    <message>
        <location filename="../ui/llm/profile_form.cpp" line="163"/>
        <source>Key&apos;s environment variable</source>
        <translation>密钥的环境变量</translation>
    </message>
    <message>
        <location filename="../ui/llm/profile_form.cpp" line="164"/>
        <source>http://localhost:8000/v1</source>
        <translation>http://localhost:8000/v1</translation>
    </message>
    <message>
        <location filename="../ui/llm/profile_form.cpp" line="165"/>
        <source>the model&apos;s name on that server</source>
        <translation>该服务器上的模型名称</translation>
    </message>
    <message>
        <location filename="../ui/llm/profile_form.cpp" line="166"/>
        <location filename="../ui/llm/profile_form.cpp" line="167"/>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <location filename="../ui/llm/profile_form.cpp" line="168"/>
        <source>This profile&apos;s requests in flight at once over the whole process (max_in_flight)</source>
        <translation>整个进程中此配置同时进行的请求数（max_in_flight）</translation>
    </message>
    <message>
        <location filename="../ui/llm/profile_form.cpp" line="169"/>
        <source>A stream below 1 byte/s for this long is dropped and retried (low_speed_time_s)</source>
        <translation>流速低于 1 字节/秒持续这么久就断开并重试（low_speed_time_s）</translation>
    </message>
    <message>
        <location filename="../ui/llm/profile_form.cpp" line="170"/>
        <source>Read when the system keychain holds no key for this profile, as the command line does</source>
        <translation>系统密钥环中没有此配置的密钥时读取，与命令行相同</translation>
    </message>
</context>
<context>
    <name>kope::ui::ProfilePane</name>
    <message>
        <location filename="../ui/views/profile_pane.cpp" line="76"/>
        <source>Device profiler counters</source>
        <translation>设备剖析器计数器</translation>
    </message>
    <message>
        <location filename="../ui/views/profile_pane.cpp" line="82"/>
        <source>Timed samples</source>
        <translation>计时样本</translation>
    </message>
    <message>
        <location filename="../ui/views/profile_pane.cpp" line="83"/>
        <source>No timed case: evaluate a kernel to see its samples.</source>
        <translation>没有计时用例：评测一个内核以查看其样本。</translation>
    </message>
    <message>
        <location filename="../ui/views/profile_pane.cpp" line="93"/>
        <source>seconds</source>
        <translation>秒</translation>
    </message>
    <message>
        <location filename="../ui/views/profile_pane.cpp" line="93"/>
        <source>milliseconds</source>
        <translation>毫秒</translation>
    </message>
    <message>
        <location filename="../ui/views/profile_pane.cpp" line="93"/>
        <source>nanoseconds</source>
        <translation>纳秒</translation>
    </message>
    <message>
        <location filename="../ui/views/profile_pane.cpp" line="97"/>
        <source>memory-bound floor</source>
        <translation>内存带宽下限</translation>
    </message>
    <message>
        <location filename="../ui/views/profile_pane.cpp" line="98"/>
        <source>Timed samples of case %1</source>
        <translation>用例 %1 的计时样本</translation>
    </message>
    <message>
        <location filename="../ui/views/profile_pane.cpp" line="99"/>
        <source>baseline</source>
        <translation>基线</translation>
    </message>
    <message>
        <location filename="../ui/views/profile_pane.cpp" line="99"/>
        <source>kernel</source>
        <translation>内核</translation>
    </message>
    <message>
        <location filename="../ui/views/profile_pane.cpp" line="100"/>
        <source>sample</source>
        <translation>样本</translation>
    </message>
    <message>
        <location filename="../ui/views/profile_pane.cpp" line="93"/>
        <source>microseconds</source>
        <translation>微秒</translation>
    </message>
    <message>
        <location filename="../ui/views/profile_pane.cpp" line="102"/>
        <source>Baseline median %1, kernel median %2 over %3 samples.</source>
        <translation>基线中位数 %1，内核中位数 %2，共 %3 个样本。</translation>
    </message>
    <message>
        <location filename="../ui/views/profile_pane.cpp" line="106"/>
        <source>Speedup %1, 95% interval %2.</source>
        <translation>加速比 %1，95% 区间 %2。</translation>
    </message>
    <message>
        <location filename="../ui/views/profile_pane.cpp" line="108"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../ui/views/profile_pane.cpp" line="110"/>
        <source>Memory-bound floor %1; position against it (HAP) %2: 50% is the baseline&apos;s speed, 100% the floor.</source>
        <translation>内存带宽下限 %1；相对位置（HAP）%2：50% 为基线速度，100% 为下限。</translation>
    </message>
    <message>
        <location filename="../ui/views/profile_pane.cpp" line="114"/>
        <source>No memory-bound floor was measured for this case.</source>
        <translation>此用例未测得内存带宽下限。</translation>
    </message>
</context>
<context>
    <name>kope::ui::ResultsHeader</name>
    <message>
        <location filename="../ui/views/results_header.cpp" line="74"/>
        <source>Task %1 · kernel %2 · evaluating: %3</source>
        <translation>任务 %1 · 内核 %2 · 评测中：%3</translation>
    </message>
    <message>
        <location filename="../ui/views/results_header.cpp" line="81"/>
        <source>No task selected.</source>
        <translation>未选择任务。</translation>
    </message>
    <message>
        <location filename="../ui/views/results_header.cpp" line="81"/>
        <source>Task %1 · no evaluation of this kernel yet.</source>
        <translation>任务 %1 · 此内核尚未评测。</translation>
    </message>
    <message>
        <location filename="../ui/views/results_header.cpp" line="84"/>
        <source>Task %1 · kernel %2 (%3) · evaluation %4 · %5</source>
        <translation>任务 %1 · 内核 %2（%3）· 评测 %4 · %5</translation>
    </message>
    <message>
        <location filename="../ui/views/results_header.cpp" line="89"/>
        <source>STALE: %1 — </source>
        <translation>已过时：%1 — </translation>
    </message>
    <message>
        <location filename="../ui/views/results_header.cpp" line="77"/>
        <source>Task %1 · kernel %2 (%3) · built only, recorded nowhere · %4</source>
        <translation>任务 %1 · 内核 %2（%3）· 仅构建，未记录 · %4</translation>
    </message>
    <message>
        <location filename="../ui/views/results_header.cpp" line="78"/>
        <source>compiles</source>
        <translation>可以编译</translation>
    </message>
</context>
<context>
    <name>kope::ui::RunController</name>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="328"/>
        <source>stopping: the running evaluation is cancelled</source>
        <translation>正在停止：正在运行的评测已取消</translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="362"/>
        <source>write the hint in the hint field first</source>
        <translation>请先在建议框中写下建议</translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="391"/>
        <location filename="../ui/views/run_controller.cpp" line="423"/>
        <source>held for approval: %1 (edit it in the editor, then Approve or Reject)</source>
        <translation>等待批准：%1（在编辑器中编辑，然后批准或拒绝）</translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="446"/>
        <source>run %1 stopped</source>
        <translation>运行 %1 已停止</translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="446"/>
        <source>run %1 done</source>
        <translation>运行 %1 完成</translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="457"/>
        <source>the run failed: %1</source>
        <translation>运行失败：%1</translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="479"/>
        <source>The next attempt starts from evaluation %1 as the incumbent.</source>
        <translation>下一次尝试将以评测 %1 作为当前最优开始。</translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="488"/>
        <source>Choose at least one task to run.</source>
        <translation>请至少选择一个任务来运行。</translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="492"/>
        <source>The run did not start: %1</source>
        <translation>运行未开始：%1</translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="587"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="608"/>
        <source>%1 case %2 of %3 (%4)</source>
        <translation>%1 第 %2/%3 个用例（%4）</translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="621"/>
        <source>%1: %2 of %3 done (%4)</source>
        <translation>%1：已完成 %2/%3（%4）</translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="638"/>
        <source>Tasks</source>
        <translation>任务</translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="639"/>
        <source>Policy</source>
        <translation>策略</translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="640"/>
        <source>offline replays the shipped kernels; type an LLM profile name to use a model</source>
        <translation>offline 重放内置内核；输入 LLM 配置名以使用模型</translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="641"/>
        <source>Memory</source>
        <translation>记忆</translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="642"/>
        <source>Attempts per task</source>
        <translation>每个任务的尝试次数</translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="643"/>
        <source>Patience (attempts without gain)</source>
        <translation>耐心（无提升的尝试次数）</translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="644"/>
        <source>Token budget (thousands)</source>
        <translation>Token 预算（千）</translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="645"/>
        <source>Wall time (minutes)</source>
        <translation>墙钟时间（分钟）</translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="646"/>
        <source>Tasks at once</source>
        <translation>同时进行的任务数</translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="647"/>
        <source>How many tasks advance side by side (kope run --jobs); timing never overlaps on a device</source>
        <translation>同时推进的任务数（kope run --jobs）；同一设备上的计时从不重叠</translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="648"/>
        <source>Devices</source>
        <translation>设备</translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="649"/>
        <source>cpu, cpu:0-3,cpu:4-7, cuda:0,1, ascend:0-7</source>
        <translation>cpu, cpu:0-3,cpu:4-7, cuda:0,1, ascend:0-7</translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="650"/>
        <source>The device pool (kope run --device): each timing slot measures one kernel at a time</source>
        <translation>设备池（kope run --device）：每个计时槽一次只测量一个内核</translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="653"/>
        <source>Start run</source>
        <translation>开始运行</translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="567"/>
        <source>Pause after attempt</source>
        <translation>本次尝试后暂停</translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="654"/>
        <source>Stop now</source>
        <translation>立即停止</translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="573"/>
        <source>A hint for the next prompt</source>
        <translation>给下一次提示的建议</translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="655"/>
        <source>Send hint</source>
        <translation>发送建议</translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="656"/>
        <source>Hold each candidate for approval</source>
        <translation>每个候选都等待批准</translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="657"/>
        <source>Approve</source>
        <translation>批准</translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="658"/>
        <source>Reject</source>
        <translation>拒绝</translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="659"/>
        <source>Pin the incumbent</source>
        <translation>固定当前最优</translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="661"/>
        <source>No run yet.</source>
        <translation>尚无运行。</translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="636"/>
        <source>Attempts</source>
        <translation>尝试</translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="637"/>
        <source>Steering log</source>
        <translation>干预记录</translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="515"/>
        <source>reading the key of %1 from %2</source>
        <translation>正在从%2读取 %1 的密钥</translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="567"/>
        <source>Resume</source>
        <translation>继续</translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="568"/>
        <source>Go on with the next attempt</source>
        <translation>继续下一次尝试</translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="569"/>
        <source>Let the running attempt finish, then wait</source>
        <translation>让当前尝试完成，然后等待</translation>
    </message>
    <message>
        <location filename="../ui/views/run_controller.cpp" line="573"/>
        <source>Hints go to a running run: start one first</source>
        <translation>提示只发给正在进行的运行：请先开始一次运行</translation>
    </message>
</context>
<context>
    <name>kope::ui::RunModel</name>
    <message>
        <location filename="../ui/models/models.cpp" line="213"/>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="214"/>
        <source>Command</source>
        <translation>命令</translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="215"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="216"/>
        <source>Started</source>
        <translation>开始时间</translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="217"/>
        <source>Finished</source>
        <translation>结束时间</translation>
    </message>
</context>
<context>
    <name>kope::ui::RunMonitor</name>
    <message>
        <location filename="../ui/views/run_monitor.cpp" line="168"/>
        <source>%1/%2 (%3)</source>
        <translation>%1/%2（%3）</translation>
    </message>
    <message>
        <location filename="../ui/views/run_monitor.cpp" line="203"/>
        <source>pauses after its current attempt</source>
        <translation>将在当前尝试后暂停</translation>
    </message>
    <message>
        <location filename="../ui/views/run_monitor.cpp" line="203"/>
        <source>resumed</source>
        <translation>已继续</translation>
    </message>
    <message>
        <location filename="../ui/views/run_monitor.cpp" line="212"/>
        <source>stopping: its running evaluation is cancelled</source>
        <translation>正在停止：其正在运行的评测已取消</translation>
    </message>
    <message>
        <location filename="../ui/views/run_monitor.cpp" line="246"/>
        <source>%1 of %2 tokens</source>
        <translation>Token %1 / %2</translation>
    </message>
    <message>
        <location filename="../ui/views/run_monitor.cpp" line="251"/>
        <source>%1 of %2 attempts</source>
        <translation>尝试 %1 / %2</translation>
    </message>
    <message>
        <location filename="../ui/views/run_monitor.cpp" line="257"/>
        <source>%1 of %2 wall time</source>
        <translation>墙钟时间 %1 / %2</translation>
    </message>
    <message>
        <location filename="../ui/views/run_monitor.cpp" line="261"/>
        <source>%1 elapsed</source>
        <translation>已用 %1</translation>
    </message>
    <message>
        <location filename="../ui/views/run_monitor.cpp" line="273"/>
        <source>Resume task</source>
        <translation>继续任务</translation>
    </message>
    <message>
        <location filename="../ui/views/run_monitor.cpp" line="273"/>
        <source>Pause task</source>
        <translation>暂停任务</translation>
    </message>
    <message>
        <location filename="../ui/views/run_monitor.cpp" line="279"/>
        <source>Budget</source>
        <translation>预算</translation>
    </message>
    <message>
        <location filename="../ui/views/run_monitor.cpp" line="280"/>
        <source>Tasks in flight</source>
        <translation>进行中的任务</translation>
    </message>
    <message>
        <location filename="../ui/views/run_monitor.cpp" line="281"/>
        <source>Device pool</source>
        <translation>设备池</translation>
    </message>
    <message>
        <location filename="../ui/views/run_monitor.cpp" line="282"/>
        <source>Pause the selected task after its current attempt, or resume it</source>
        <translation>在当前尝试后暂停所选任务，或使其继续</translation>
    </message>
    <message>
        <location filename="../ui/views/run_monitor.cpp" line="283"/>
        <source>Stop task</source>
        <translation>停止任务</translation>
    </message>
    <message>
        <location filename="../ui/views/run_monitor.cpp" line="284"/>
        <source>Stop the selected task now; the others go on</source>
        <translation>立即停止所选任务；其他任务继续</translation>
    </message>
    <message>
        <location filename="../ui/views/run_monitor.cpp" line="285"/>
        <source>Hint to task</source>
        <translation>给任务的建议</translation>
    </message>
    <message>
        <location filename="../ui/views/run_monitor.cpp" line="286"/>
        <source>Send the hint being written above to the selected task alone</source>
        <translation>将上方正在编写的建议只发送给所选任务</translation>
    </message>
</context>
<context>
    <name>kope::ui::SlotModel</name>
    <message>
        <location filename="../ui/models/run_models.cpp" line="156"/>
        <source>Slot</source>
        <translation>计时槽</translation>
    </message>
    <message>
        <location filename="../ui/models/run_models.cpp" line="157"/>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../ui/models/run_models.cpp" line="158"/>
        <source>Doing</source>
        <translation>正在进行</translation>
    </message>
    <message>
        <location filename="../ui/models/run_models.cpp" line="159"/>
        <source>Measurements</source>
        <translation>测量次数</translation>
    </message>
    <message>
        <location filename="../ui/models/run_models.cpp" line="184"/>
        <source>retired</source>
        <translation>已移出</translation>
    </message>
    <message>
        <location filename="../ui/models/run_models.cpp" line="184"/>
        <source>busy</source>
        <translation>忙碌</translation>
    </message>
    <message>
        <location filename="../ui/models/run_models.cpp" line="184"/>
        <source>idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <location filename="../ui/models/run_models.cpp" line="185"/>
        <source>out of the pool: %1</source>
        <translation>已移出设备池：%1</translation>
    </message>
    <message>
        <location filename="../ui/models/run_models.cpp" line="183"/>
        <source>all cores</source>
        <translation>全部核心</translation>
    </message>
</context>
<context>
    <name>kope::ui::SpeedupChart</name>
    <message>
        <location filename="../ui/charts/speedup_chart.cpp" line="41"/>
        <source>Speedup over the baseline, per case</source>
        <translation>各用例相对基线的加速比</translation>
    </message>
    <message>
        <location filename="../ui/charts/speedup_chart.cpp" line="48"/>
        <source>speedup</source>
        <translation>加速比</translation>
    </message>
    <message>
        <location filename="../ui/charts/speedup_chart.cpp" line="67"/>
        <source>baseline time / kernel time</source>
        <translation>基线耗时 / 内核耗时</translation>
    </message>
    <message>
        <location filename="../ui/charts/speedup_chart.cpp" line="84"/>
        <source>Speedup over the baseline, per case (%1)</source>
        <translation>各用例相对基线的加速比（%1）</translation>
    </message>
</context>
<context>
    <name>kope::ui::SteeringModel</name>
    <message>
        <location filename="../ui/models/models.cpp" line="284"/>
        <source>At</source>
        <translation>时间</translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="285"/>
        <source>Act</source>
        <translation>操作</translation>
    </message>
    <message>
        <location filename="../ui/models/models.cpp" line="286"/>
        <source>Detail</source>
        <translation>详情</translation>
    </message>
</context>
<context>
    <name>kope::ui::StudyChart</name>
    <message>
        <location filename="../ui/charts/study_chart.cpp" line="44"/>
        <source>Pass rate per arm and level (% of cases)</source>
        <translation>各组各级别的通过率（用例百分比）</translation>
    </message>
    <message>
        <location filename="../ui/charts/study_chart.cpp" line="45"/>
        <source>Geometric-mean speedup per arm and level</source>
        <translation>各组各级别的几何平均加速比</translation>
    </message>
</context>
<context>
    <name>kope::ui::StudyLevelModel</name>
    <message>
        <location filename="../ui/models/study_models.cpp" line="17"/>
        <source>Arm</source>
        <translation>组</translation>
    </message>
    <message>
        <location filename="../ui/models/study_models.cpp" line="18"/>
        <source>Level</source>
        <translation>级别</translation>
    </message>
    <message>
        <location filename="../ui/models/study_models.cpp" line="19"/>
        <source>Compiled</source>
        <translation>已编译</translation>
    </message>
    <message>
        <location filename="../ui/models/study_models.cpp" line="20"/>
        <source>Correct</source>
        <translation>正确</translation>
    </message>
    <message>
        <location filename="../ui/models/study_models.cpp" line="21"/>
        <source>Pass rate</source>
        <translation>通过率</translation>
    </message>
    <message>
        <location filename="../ui/models/study_models.cpp" line="22"/>
        <source>fast_1</source>
        <translation>fast_1</translation>
    </message>
    <message>
        <location filename="../ui/models/study_models.cpp" line="23"/>
        <source>Speedup (geomean)</source>
        <translation>加速比（几何平均）</translation>
    </message>
    <message>
        <location filename="../ui/models/study_models.cpp" line="24"/>
        <source>Score</source>
        <translation>得分</translation>
    </message>
    <message>
        <location filename="../ui/models/study_models.cpp" line="25"/>
        <source>Attempts</source>
        <translation>尝试次数</translation>
    </message>
    <message>
        <location filename="../ui/models/study_models.cpp" line="26"/>
        <source>Tokens</source>
        <translation>令牌数</translation>
    </message>
    <message>
        <location filename="../ui/models/study_models.cpp" line="27"/>
        <source>Wall time</source>
        <translation>墙钟时间</translation>
    </message>
    <message>
        <location filename="../ui/models/study_models.cpp" line="50"/>
        <source>operators correct and faster than the %1 baseline</source>
        <translation>正确且快于 %1 基线的算子</translation>
    </message>
    <message>
        <location filename="../ui/models/study_models.cpp" line="58"/>
        <source>%1 (%2/%3 cases)</source>
        <translation>%1（%2/%3 个用例）</translation>
    </message>
    <message>
        <location filename="../ui/models/study_models.cpp" line="64"/>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
</context>
<context>
    <name>kope::ui::StudyPane</name>
    <message>
        <location filename="../ui/views/study_pane.cpp" line="95"/>
        <location filename="../ui/views/study_pane.cpp" line="128"/>
        <source>all arms</source>
        <translation>全部组</translation>
    </message>
    <message>
        <location filename="../ui/views/study_pane.cpp" line="116"/>
        <source>No study open. Run `kope study` and open its folder.</source>
        <translation>未打开研究。请运行 `kope study` 并打开其文件夹。</translation>
    </message>
    <message>
        <location filename="../ui/views/study_pane.cpp" line="119"/>
        <source>%1: policy %2 on %3, %4 to %5%6</source>
        <translation>%1：策略 %2，设备 %3，%4 至 %5%6</translation>
    </message>
    <message>
        <location filename="../ui/views/study_pane.cpp" line="122"/>
        <source> (stopped before every arm ran)</source>
        <translation>（在所有组运行完之前已停止）</translation>
    </message>
    <message>
        <location filename="../ui/views/study_pane.cpp" line="126"/>
        <source>Open study...</source>
        <translation>打开研究...</translation>
    </message>
    <message>
        <location filename="../ui/views/study_pane.cpp" line="127"/>
        <source>&amp;Operators of</source>
        <translation>算子(&amp;O)：</translation>
    </message>
</context>
<context>
    <name>kope::ui::StudyTaskModel</name>
    <message>
        <location filename="../ui/models/study_models.cpp" line="71"/>
        <source>Arm</source>
        <translation>组</translation>
    </message>
    <message>
        <location filename="../ui/models/study_models.cpp" line="72"/>
        <source>Level</source>
        <translation>级别</translation>
    </message>
    <message>
        <location filename="../ui/models/study_models.cpp" line="73"/>
        <source>Operator</source>
        <translation>算子</translation>
    </message>
    <message>
        <location filename="../ui/models/study_models.cpp" line="74"/>
        <source>Kernel</source>
        <translation>内核</translation>
    </message>
    <message>
        <location filename="../ui/models/study_models.cpp" line="75"/>
        <source>Cases correct</source>
        <translation>正确用例</translation>
    </message>
    <message>
        <location filename="../ui/models/study_models.cpp" line="76"/>
        <source>Speedup</source>
        <translation>加速比</translation>
    </message>
    <message>
        <location filename="../ui/models/study_models.cpp" line="77"/>
        <source>Score</source>
        <translation>得分</translation>
    </message>
    <message>
        <location filename="../ui/models/study_models.cpp" line="78"/>
        <source>Attempts</source>
        <translation>尝试次数</translation>
    </message>
    <message>
        <location filename="../ui/models/study_models.cpp" line="79"/>
        <source>Tokens</source>
        <translation>令牌数</translation>
    </message>
    <message>
        <location filename="../ui/models/study_models.cpp" line="106"/>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <location filename="../ui/models/study_models.cpp" line="108"/>
        <source>%1 vs %2</source>
        <translation>%1 对比 %2</translation>
    </message>
</context>
<context>
    <name>kope::ui::TaskModel</name>
    <message>
        <location filename="../ui/models/models.cpp" line="304"/>
        <source>Task</source>
        <translation>任务</translation>
    </message>
</context>
</TS>

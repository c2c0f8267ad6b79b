<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>CampaignRunState</name>
    <message>
        <location filename="../widgets/campaign/campaign_feed.cpp" line="+20"/>
        <source>idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>paused</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>following</source>
        <translation>跟随中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>replaying</source>
        <translation>回放中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>paused (needs attention)</source>
        <translation>已暂停（需要处理）</translation>
    </message>
</context>
<context>
    <name>TracePane</name>
    <message>
        <location line="+341"/>
        <source>(the prompt cannot be shown: %1)</source>
        <translation>（无法显示提示词：%1）</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <location filename="../app/gui/main.cpp" line="+39"/>
        <source>StepForge workbench</source>
        <translation>StepForge 工作台</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Verify the document, save a PNG of the window, exit.</source>
        <translation>验证文档，将窗口保存为 PNG 图片，然后退出。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Start a new buffer for a bundled task.</source>
        <translation>为内置任务新建一个缓冲区。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Open a campaign workspace (finished, or live: followed).</source>
        <translation>打开一个活动工作区（已完成的，或正在运行的：跟随）。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Replay a recorded campaign workspace in the presentation layout.</source>
        <translation>以演示布局回放一个已录制的活动工作区。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>With --demo: render the replay offscreen to DIR/frame_NNNNN.png and DIR/captions.srt, then exit.</source>
        <translation>与 --demo 一起使用：离屏渲染回放到 DIR/frame_NNNNN.png 和 DIR/captions.srt，然后退出。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Frames per second of --record (default 10).</source>
        <translation>--record 的每秒帧数（默认 10）。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Frame size of --record (default 1920x1080).</source>
        <translation>--record 的帧尺寸（默认 1920x1080）。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Task document or solution file.</source>
        <translation>任务文档或解答文件。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>stepforge: cannot open %1</source>
        <translation>stepforge：无法打开 %1</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>stepforge: --record needs --demo WORKSPACE</source>
        <translation>stepforge：--record 需要 --demo WORKSPACE</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>%1 frames and %2 captions in %3</source>
        <translation>%1 帧和 %2 条字幕，位于 %3</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>stepforge: cannot write %1</source>
        <translation>stepforge：无法写入 %1</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>stepforge: timed out waiting for the verification</source>
        <translation>stepforge：等待验证超时</translation>
    </message>
</context>
<context>
    <name>record</name>
    <message>
        <location filename="../widgets/campaign/demo_recorder.cpp" line="+59"/>
        <source>--fps must be between 1 and 120</source>
        <translation>--fps 必须在 1 到 120 之间</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>--size must be WIDTHxHEIGHT, e.g. 1920x1080</source>
        <translation>--size 必须是 宽x高，例如 1920x1080</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>cannot create %1</source>
        <translation>无法创建 %1</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>the replay did not start</source>
        <translation>回放没有开始</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>the replay did not reach event %1</source>
        <translation>回放没有到达事件 %1</translation>
    </message>
    <message>
        <location line="+9"/>
        <location line="+23"/>
        <source>cannot write %1</source>
        <translation>无法写入 %1</translation>
    </message>
</context>
<context>
    <name>sf::widgets</name>
    <message>
        <location filename="../widgets/engine/engine_jobs.cpp" line="+13"/>
        <source>Check</source>
        <translation>检查</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Simulate</source>
        <translation>模拟</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Verify</source>
        <translation>验证</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Rewrite</source>
        <translation>重写</translation>
    </message>
    <message>
        <location line="+125"/>
        <source>the program can only be rewritten in a block `impl: |`</source>
        <translation>只能在 `impl: |` 块中重写程序</translation>
    </message>
</context>
<context>
    <name>sf::widgets::AgentDocks</name>
    <message>
        <location filename="../widgets/editor/agent_docks.cpp" line="+29"/>
        <location line="+44"/>
        <source>Agent</source>
        <translation>智能体</translation>
    </message>
    <message>
        <location line="-34"/>
        <source>Help</source>
        <translation>帮助</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A&amp;gent</source>
        <translation>智能体(&amp;G)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Propose</source>
        <translation>提议(&amp;P)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Ctrl+Alt+P</source>
        <translation>Ctrl+Alt+P</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ask the agent for a program for this task, from scratch</source>
        <translation>请智能体为此任务从头编写程序</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Repair</source>
        <translation>修复(&amp;R)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Ctrl+Alt+R</source>
        <translation>Ctrl+Alt+R</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Send the program with its diagnostics or failing verdict and ask for a fix</source>
        <translation>发送程序及其诊断或失败结论，请求修复</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Optimise</source>
        <translation>优化(&amp;O)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Ctrl+Alt+O</source>
        <translation>Ctrl+Alt+O</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Send the correct program with its cost-model feedback and ask for a faster one</source>
        <translation>发送正确的程序及其成本模型反馈，请求更快的程序</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Ask…</source>
        <translation>提问(&amp;A)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Ctrl+Alt+A</source>
        <translation>Ctrl+Alt+A</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A round with your own instruction added</source>
        <translation>附加你自己的指令的一轮</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Promote Editor Program to &amp;Golden</source>
        <translation>将编辑器中的程序加入黄金示例(&amp;G)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Ctrl+Alt+G</source>
        <translation>Ctrl+Alt+G</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Verify the editor&apos;s program and add it to the golden set (refused with the reason when it does not verify)</source>
        <translation>验证编辑器中的程序并加入黄金示例集（未通过验证时拒绝并说明原因）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Cancel Agent</source>
        <translation>取消智能体(&amp;C)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Ctrl+Alt+K</source>
        <translation>Ctrl+Alt+K</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Agent &amp;Preferences…</source>
        <translation>智能体首选项(&amp;P)…</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The %1 decision was not logged: %2</source>
        <translation>决定 %1 未被记录：%2</translation>
    </message>
    <message>
        <location line="+129"/>
        <source>Not promoted: %1</source>
        <translation>未加入：%1</translation>
    </message>
    <message>
        <location line="-84"/>
        <source>Ask the agent</source>
        <translation>向智能体提问</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>e.g. use Partition to spread the experts over lanes</source>
        <translation>例如：使用 Partition 将专家分散到各通道</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Propose (from scratch)</source>
        <translation>提议（从头开始）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Repair this program</source>
        <translation>修复此程序</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Optimise this program</source>
        <translation>优化此程序</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>&amp;Instruction:</source>
        <translation>指令(&amp;I)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Round:</source>
        <translation>轮次(&amp;R)：</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Agent %1: %2</source>
        <translation>智能体 %1：%2</translation>
    </message>
    <message>
        <location line="+59"/>
        <source>Promoting (verifying)…</source>
        <translation>正在加入（验证中）…</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Promoting (verifying again)…</source>
        <translation>正在加入（再次验证）…</translation>
    </message>
</context>
<context>
    <name>sf::widgets::AgentPanel</name>
    <message>
        <location filename="../widgets/editor/agent_panel.cpp" line="+28"/>
        <source>accepted</source>
        <translation>已接受</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>rejected</source>
        <translation>已拒绝</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>restored</source>
        <translation>已恢复</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>undecided</source>
        <translation>未决定</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Repair</source>
        <translation>修复</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Optimise</source>
        <translation>优化</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Propose</source>
        <translation>提议</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>error: %1</source>
        <translation>错误：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>verified</source>
        <translation>已验证</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 cycles</source>
        <translation>%1 个周期</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>speedup %1</source>
        <translation>加速比 %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not feasible</source>
        <translation>不可行</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>does not verify: %1 %2 at %3:%4: %5</source>
        <translation>未通过验证：%1 %2，位置 %3:%4：%5</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>does not verify: %1</source>
        <translation>未通过验证：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>endpoint failed: %1</source>
        <translation>端点失败：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no program: %1</source>
        <translation>没有程序：%1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Agent idle — Agent → Propose, Repair, Optimise or Ask…</source>
        <translation>智能体空闲 — 智能体 → 提议、修复、优化或提问…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Accept</source>
        <translation>接受</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reject</source>
        <translation>拒绝</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Promote to golden</source>
        <translation>加入黄金示例</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Restore</source>
        <translation>恢复</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Stop the round now (the request is aborted)</source>
        <translation>立即停止本轮（请求被中止）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The model&apos;s answer appears here as it arrives.</source>
        <translation>模型的回答到达时会显示在这里。</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Replace the editor&apos;s program by the proposal (one undoable edit)</source>
        <translation>用提议替换编辑器中的程序（一次可撤销的编辑）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Add the accepted, verified program to the golden demonstrations (verified again)</source>
        <translation>将已接受且已验证的程序加入黄金示例（会再次验证）</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Memory item</source>
        <translation>记忆条目</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Adopted</source>
        <translation>已采用</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Rationale</source>
        <translation>理由</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Put this round&apos;s proposal into the editor (one undoable edit)</source>
        <translation>将此轮的提议放入编辑器（一次可撤销的编辑）</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Review</source>
        <translation>审阅</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>History</source>
        <translation>历史</translation>
    </message>
    <message>
        <location line="+54"/>
        <source>» %1</source>
        <translation>» %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1: waiting for the model…</source>
        <translation>%1：正在等待模型…</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>%1: searching…</source>
        <translation>%1：正在搜索…</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1: streaming…</source>
        <translation>%1：正在接收回答…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1: thinking…</source>
        <translation>%1：正在思考…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1: checking and verifying…</source>
        <translation>%1：正在检查和验证…</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 tokens in, %2 out</source>
        <translation>输入 %1 个 token，输出 %2 个</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>cost unknown</source>
        <translation>成本未知</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>— cancelled —</source>
        <translation>— 已取消 —</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Round %1 · %2 · task %3</source>
        <translation>第 %1 轮 · %2 · 任务 %3</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>editor (empty)</source>
        <translation>编辑器（空）</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>editor</source>
        <translation>编辑器</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>proposal (verified)</source>
        <translation>提议（已验证）</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>proposal (does not verify)</source>
        <translation>提议（未通过验证）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Guardian: %1</source>
        <translation>守护者：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>(no change)</source>
        <translation>（无改动）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Guardian: not run (no program to guard)</source>
        <translation>守护者：未运行（没有可检查的程序）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Sent with the program:</source>
        <translation>随程序发送：</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>not stated</source>
        <translation>未说明</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>shown at rank %1, relevance %2</source>
        <translation>显示排名 %1，相关度 %2</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>resident rule</source>
        <translation>常驻规则</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>(nothing retrieved: no workspace memory, or nothing relevant in it)</source>
        <translation>（未检索到内容：没有工作区记忆，或其中没有相关内容）</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>#%1 %2 %3 — %4 — %5</source>
        <translation>#%1 %2 %3 — %4 — %5</translation>
    </message>
</context>
<context>
    <name>sf::widgets::AgentRunner</name>
    <message>
        <location filename="../widgets/editor/agent_runner.cpp" line="+85"/>
        <source>the OS keyring did not store the key (%1); it is used for this session only</source>
        <translation>系统密钥环未能保存该密钥（%1）；它仅在本次会话中使用</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>stored in the OS keyring as %1</source>
        <translation>已以 %1 存入系统密钥环</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>this build has no OS keyring; the key is used for this session only</source>
        <translation>此版本没有系统密钥环；该密钥仅在本次会话中使用</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>backend in the preferences: %1</source>
        <translation>首选项中的后端：%1</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>memory workspace %1: %2</source>
        <translation>记忆工作区 %1：%2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>session workspace %1: %2</source>
        <translation>会话工作区 %1：%2</translation>
    </message>
    <message>
        <location line="+42"/>
        <source>task &apos;%1&apos; is not in the benchmark catalogue</source>
        <translation>任务“%1”不在基准目录中</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>the editor holds no task document or solution file</source>
        <translation>编辑器中没有任务文档或解答文件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the document does not load: %1 at %2:%3</source>
        <translation>文档无法加载：%1，位置 %2:%3</translation>
    </message>
    <message>
        <location line="+102"/>
        <source>Not promoted: %1</source>
        <translation>未加入：%1</translation>
    </message>
</context>
<context>
    <name>sf::widgets::AuditDocks</name>
    <message>
        <location filename="../widgets/audit/audit_docks.cpp" line="+17"/>
        <source>Adoption Audit</source>
        <translation>采纳审计</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Memory</source>
        <translation>记忆</translation>
    </message>
    <message>
        <location line="+42"/>
        <source>Replay: the records follow the replayed events</source>
        <translation>回放：记录随回放的事件更新</translation>
    </message>
</context>
<context>
    <name>sf::widgets::AuditModel</name>
    <message>
        <location filename="../widgets/audit/audit_model.cpp" line="+145"/>
        <source>No campaign workspace is open.</source>
        <translation>没有打开的活动工作区。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>No adoption record selected.</source>
        <translation>未选择采纳记录。</translation>
    </message>
    <message>
        <location line="+123"/>
        <source>adopted</source>
        <translation>已采纳</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>not adopted</source>
        <translation>未采纳</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>⚠ %1× suspicious</source>
        <translation>⚠ %1× 可疑</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>A speedup above %1× is suspicious: check the program by hand</source>
        <translation>加速比超过 %1× 可疑：请人工检查该程序</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 by %2 at %3
%4</source>
        <translation>%1，由 %2 于 %3
%4</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>resolved after a re-ask</source>
        <translation>追问后解决</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Task</source>
        <translation>任务</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Episode</source>
        <translation>回合</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Round</source>
        <translation>轮次</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Item</source>
        <translation>条目</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Rank</source>
        <translation>排名</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Score</source>
        <translation>得分</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Adopted</source>
        <translation>已采纳</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Rationale</source>
        <translation>理由</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Label</source>
        <translation>标注</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Speedup</source>
        <translation>加速比</translation>
    </message>
</context>
<context>
    <name>sf::widgets::AuditPane</name>
    <message>
        <location filename="../widgets/audit/audit_pane.cpp" line="+42"/>
        <location line="+366"/>
        <source>All tasks</source>
        <translation>所有任务</translation>
    </message>
    <message>
        <location line="-364"/>
        <source>Adopted or not</source>
        <translation>采纳与否</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Adopted</source>
        <translation>已采纳</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Not adopted</source>
        <translation>未采纳</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Any label</source>
        <translation>任意标注</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Unlabelled</source>
        <translation>未标注</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Full</source>
        <translation>完全</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Partial</source>
        <translation>部分</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Unrelated</source>
        <translation>无关</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Search rationale, item, task, note, rule</source>
        <translation>搜索理由、条目、任务、备注、规则</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>N = </source>
        <translation>N = </translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Seed of the random sample (the same seed draws the same records)</source>
        <translation>随机抽样的种子（相同的种子抽取相同的记录）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>New seed</source>
        <translation>新种子</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Sample</source>
        <translation>样本</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Show N records drawn at random for a blind audit</source>
        <translation>显示随机抽取的 N 条记录，用于盲审</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Show all</source>
        <translation>全部显示</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Blind</source>
        <translation>盲审</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>While sampling, hide the adoption claim, rank, score, existing labels and other auditors&apos; labels (B)</source>
        <translation>抽样时隐藏采用声明、排名、分数、已有标注以及其他审核员的标注（B）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Your name: labels are saved per auditor (kept in the preferences)</source>
        <translation>你的名字：标注按审核员分别保存（保存在首选项中）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Random sample:</source>
        <translation>随机抽样：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>seed</source>
        <translation>种子</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Auditor</source>
        <translation>审核员</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Episode &amp;Lineage (L)</source>
        <translation>回合谱系(&amp;L)（L）</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Before</source>
        <translation>之前</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>After</source>
        <translation>之后</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>&amp;1 Full</source>
        <translation>&amp;1 完全</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;2 Partial</source>
        <translation>&amp;2 部分</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;3 Unrelated</source>
        <translation>&amp;3 无关</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The revision fully applies the experience (key 1)</source>
        <translation>修订完全应用了该经验（按键 1）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The revision partly applies the experience (key 2)</source>
        <translation>修订部分应用了该经验（按键 2）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The revision is unrelated to the experience (key 3)</source>
        <translation>修订与该经验无关（按键 3）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Note (saved with the next label; Ctrl+1/2/3 label, Ctrl+Enter completes)</source>
        <translation>备注（随下一个标注保存；Ctrl+1/2/3 标注，Ctrl+Enter 完成）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Label (1/2/3, J/K to move, ? for all keys):</source>
        <translation>标注（1/2/3，J/K 移动，? 查看所有按键）：</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Export Markdown…</source>
        <translation>导出 Markdown…</translation>
    </message>
    <message>
        <location line="+84"/>
        <source>Cannot open the audit of %1: %2</source>
        <translation>无法打开 %1 的审计：%2</translation>
    </message>
    <message numerus="yes">
        <location line="+6"/>
        <source>%n adoption record(s)</source>
        <translation>
            <numerusform>%n 条采纳记录</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n malformed event(s) skipped</source>
        <translation>
            <numerusform>已跳过 %n 个格式错误的事件</numerusform>
        </translation>
    </message>
    <message>
        <location line="+39"/>
        <source>Label not saved: %1</source>
        <translation>标注未保存：%1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Labelled %1 as %2</source>
        <translation>已将 %1 标注为 %2</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Choose a label first: 1 full, 2 partial, 3 unrelated</source>
        <translation>请先选择标注：1 完全，2 部分，3 无关</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>1 / Ctrl+1 — label full and go to the next record
2 / Ctrl+2 — label partial and go to the next record
3 / Ctrl+3 — label unrelated and go to the next record
Ctrl+Enter — complete: save the note with your label and go to the next record
J / Ctrl+J — next record
K / Ctrl+K — previous record
N — write a note (focus the note field; Esc goes back to the table)
S — draw the random sample (N records, the seed shown)
A — show all records
B — blind on / off (hides the claim and other auditors&apos; labels)
L / Ctrl+L — episode lineage of the record&apos;s episode (rounds, programs, verdicts, adopted items)
? / F1 — this cheat sheet
Keys with Ctrl also work while the note field has focus.</source>
        <translation>1 / Ctrl+1 — 标注为完全并转到下一条记录
2 / Ctrl+2 — 标注为部分并转到下一条记录
3 / Ctrl+3 — 标注为无关并转到下一条记录
Ctrl+Enter — 完成：将备注与你的标注一起保存并转到下一条记录
J / Ctrl+J — 下一条记录
K / Ctrl+K — 上一条记录
N — 写备注（聚焦备注框；Esc 返回表格）
S — 抽取随机样本（N 条记录，显示种子）
A — 显示所有记录
B — 开关盲审（隐藏采用声明和其他审核员的标注）
L / Ctrl+L — 该记录所在回合的谱系（轮次、程序、判定、采纳的条目）
? / F1 — 本速查表
带 Ctrl 的按键在备注框获得焦点时同样有效。</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Choose a record first</source>
        <translation>请先选择一条记录</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>No episode lineage: %1</source>
        <translation>没有回合谱系：%1</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Audit keyboard shortcuts</source>
        <translation>审核快捷键</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Sample of %1 of %2 records, seed %3</source>
        <translation>从 %2 条记录中抽取 %1 条，种子 %3</translation>
    </message>
    <message>
        <location line="+42"/>
        <source>full</source>
        <translation>完全</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>partial</source>
        <translation>部分</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>unrelated</source>
        <translation>无关</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 %2 (%3%)</source>
        <translation>%1 %2（%3%）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Sample: </source>
        <translation>样本：</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>All records: </source>
        <translation>所有记录：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 of %2 labelled</source>
        <translation>已标注 %1 / %2</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>undefined</source>
        <translation>未定义</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>vs %1: %2 both, %3% agree, κ %4, %5 disagreements</source>
        <translation>对比 %1：%2 条共同标注，%3% 一致，κ %4，%5 处分歧</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>Export audit summary as Markdown</source>
        <translation>将审计摘要导出为 Markdown</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Export audit summary as CSV</source>
        <translation>将审计摘要导出为 CSV</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Markdown (*.md)</source>
        <translation>Markdown (*.md)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Summary written to %1</source>
        <translation>摘要已写入 %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>&lt;p&gt;&lt;i&gt;Select an adoption record.&lt;/i&gt;&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;i&gt;请选择一条采纳记录。&lt;/i&gt;&lt;/p&gt;</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>from task %1, episode %2, %3 tokens</source>
        <translation>来自任务 %1，回合 %2，%3 个令牌</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>from task %1, episode %2 (memory.json)</source>
        <translation>来自任务 %1，回合 %2（memory.json）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>(no experience_added event and no memory.json entry for this item)</source>
        <translation>（此条目既没有 experience_added 事件，也没有 memory.json 记录）</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Experience %1</source>
        <translation>经验 %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Rule</source>
        <translation>规则</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Evidence</source>
        <translation>证据</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Task %1, episode %2, round %3</source>
        <translation>任务 %1，回合 %2，轮次 %3</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>adopted</source>
        <translation>已采纳</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>not adopted</source>
        <translation>未采纳</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>, rank %1, score %2, utility %3</source>
        <translation>，排名 %1，得分 %2，效用 %3</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Agent&apos;s rationale</source>
        <translation>智能体的理由</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Before (no earlier round)</source>
        <translation>之前（没有更早的轮次）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Before (round %1: no program)</source>
        <translation>之前（第 %1 轮：无程序）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Before (round %1)</source>
        <translation>之前（第 %1 轮）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>After (no program produced)</source>
        <translation>之后（未生成程序）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>After (round %1)</source>
        <translation>之后（第 %1 轮）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>yours: %1</source>
        <translation>你的：%1</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
</context>
<context>
    <name>sf::widgets::CampaignDialog</name>
    <message>
        <location filename="../widgets/campaign/campaign_dialog.cpp" line="+37"/>
        <source>the endpoint did not answer</source>
        <translation>端点没有应答</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Nothing to connect to: %1.</source>
        <translation>无需连接：%1。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Connected to %1: %2 replied in %3 s.</source>
        <translation>已连接到 %1：%2 在 %3 秒内应答。</translation>
    </message>
    <message numerus="yes">
        <location line="+6"/>
        <source>The endpoint lists %n model(s): %1.</source>
        <translation>
            <numerusform>端点列出了 %n 个模型：%1。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+4"/>
        <source>It does not list &apos;%1&apos;.</source>
        <translation>其中没有列出“%1”。</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>New Campaign</source>
        <translation>新建活动</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>e.g. OPENAI_API_KEY</source>
        <translation>例如 OPENAI_API_KEY</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The name of the environment variable that holds the API key. The key itself is never written to the workspace, the log or a trace.</source>
        <translation>保存 API 密钥的环境变量名称。密钥本身绝不会写入工作区、日志或跟踪记录。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>0.4, 0.7, 1.0</source>
        <translation>0.4, 0.7, 1.0</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>task ids or groups, comma separated (empty: the 26 benchmark tasks)</source>
        <translation>任务 ID 或分组，以逗号分隔（留空：26 个基准任务）</translation>
    </message>
    <message>
        <location line="+4"/>
        <location line="+5"/>
        <location line="+5"/>
        <source>unlimited</source>
        <translation>不限</translation>
    </message>
    <message>
        <location line="-1"/>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Preset:</source>
        <translation>预设：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Name:</source>
        <translation>名称：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Backend:</source>
        <translation>后端：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Model:</source>
        <translation>模型：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Base URL:</source>
        <translation>基础 URL：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>API key variable:</source>
        <translation>API 密钥变量：</translation>
    </message>
    <message>
        <location line="+1"/>
        <location filename="../widgets/settings_dialog.cpp" line="+231"/>
        <source>Connection:</source>
        <translation>连接：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Mode:</source>
        <translation>模式：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Samples n:</source>
        <translation>样本数 n：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Temperature (iteration 0):</source>
        <translation>温度（第 0 次迭代）：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Temperatures:</source>
        <translation>温度：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Difficulty levels m:</source>
        <translation>难度等级 m：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Selection:</source>
        <translation>选择方式：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tasks:</source>
        <translation>任务：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Token budget:</source>
        <translation>令牌预算：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cost budget:</source>
        <translation>费用预算：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Wall-time budget:</source>
        <translation>时间预算：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Seed:</source>
        <translation>种子：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Workspace folder:</source>
        <translation>工作区文件夹：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Workspace folder (new or empty)</source>
        <translation>工作区文件夹（新建或空文件夹）</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Test connection</source>
        <translation>测试连接</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Send one minimal request to the endpoint and list the models it serves</source>
        <translation>向端点发送一个最小请求，并列出它提供的模型</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>Testing %1 …</source>
        <translation>正在测试 %1 …</translation>
    </message>
    <message>
        <location line="+82"/>
        <source>Temperatures: &apos;%1&apos; is not a number</source>
        <translation>温度：“%1”不是数字</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>Choose a workspace folder</source>
        <translation>选择工作区文件夹</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 already holds a campaign (open it with Campaign → Open Workspace)</source>
        <translation>%1 中已有一个活动（请通过 活动 → 打开工作区 打开）</translation>
    </message>
</context>
<context>
    <name>sf::widgets::CampaignDocks</name>
    <message>
        <location filename="../widgets/campaign/campaign_docks.cpp" line="+93"/>
        <source>No campaign open (Campaign → New Campaign or Open Workspace).</source>
        <translation>没有打开的活动（活动 → 新建活动 或 打开工作区）。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Resume</source>
        <translation>继续</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Replay speed:</source>
        <translation>回放速度：</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>fastest</source>
        <translation>最快</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>%1 events/s</source>
        <translation>%1 事件/秒</translation>
    </message>
    <message>
        <location line="+14"/>
        <location line="+123"/>
        <source>Campaign</source>
        <translation>活动</translation>
    </message>
    <message>
        <location line="-114"/>
        <source>No episode lineage: %1</source>
        <translation>没有回合谱系：%1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Traces</source>
        <translation>跟踪</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Learning Curves</source>
        <translation>学习曲线</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Add Workspace…</source>
        <translation>添加工作区…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Compare</source>
        <translation>比较</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Curves</source>
        <translation>曲线</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tokens and cost</source>
        <translation>令牌与费用</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Per-task success</source>
        <translation>各任务成功情况</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Drill-down</source>
        <translation>下钻</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Campaign workspace to compare</source>
        <translation>要比较的活动工作区</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Run Comparison</source>
        <translation>运行比较</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Help</source>
        <translation>帮助</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Campaign</source>
        <translation>活动(&amp;C)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;New Campaign…</source>
        <translation>新建活动(&amp;N)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ctrl+Shift+N</source>
        <translation>Ctrl+Shift+N</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Open Workspace…</source>
        <translation>打开工作区(&amp;O)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Open campaign workspace</source>
        <translation>打开活动工作区</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Ctrl+Shift+O</source>
        <translation>Ctrl+Shift+O</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Co&amp;ntinue Workspace…</source>
        <translation>继续工作区(&amp;N)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Continue an unfinished campaign</source>
        <translation>继续一个未完成的活动</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Pause</source>
        <translation>暂停(&amp;P)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ctrl+Shift+P</source>
        <translation>Ctrl+Shift+P</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Resume</source>
        <translation>继续(&amp;R)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ctrl+Shift+R</source>
        <translation>Ctrl+Shift+R</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Cancel Campaign</source>
        <translation>取消活动(&amp;C)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Demo Mode…</source>
        <translation>演示模式(&amp;D)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Replay a recorded campaign</source>
        <translation>回放一个已录制的活动</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Presentation &amp;Layout</source>
        <translation>演示布局(&amp;L)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>F11</source>
        <translation>F11</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Co&amp;mpare Workspaces…</source>
        <translation>比较工作区(&amp;M)…</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Workspace %1</source>
        <translation>工作区 %1</translation>
    </message>
    <message>
        <location line="+112"/>
        <source>%1 (%2) — %3</source>
        <translation>%1（%2）— %3</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>campaign</source>
        <translation>活动</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>episode %1: round %2 of %3</source>
        <translation>回合 %1：第 %2 / %3 轮</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>iteration %1: %2 of %3 samples</source>
        <translation>迭代 %1：%2 / %3 个样本</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 — %2/%3 tasks solved — %4 tokens — $%5 — ETA %6 — %7 events</source>
        <translation>%1 — 已解决 %2/%3 个任务 — %4 个令牌 — $%5 — 预计剩余 %6 — %7 个事件</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>finished (%1)</source>
        <translation>已完成（%1）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>paused: fix the cause, then Resume</source>
        <translation>已暂停：排除原因后点击继续</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&lt;b&gt;The campaign paused itself.&lt;/b&gt; %1</source>
        <translation>&lt;b&gt;活动已自行暂停。&lt;/b&gt; %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Campaign %1</source>
        <translation>活动 %1</translation>
    </message>
</context>
<context>
    <name>sf::widgets::CampaignWorker</name>
    <message>
        <location filename="../widgets/campaign/campaign_worker.cpp" line="+90"/>
        <source>campaign.json: %1</source>
        <translation>campaign.json：%1</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>events.jsonl: %1</source>
        <translation>events.jsonl：%1</translation>
    </message>
    <message>
        <location line="+7"/>
        <location line="+268"/>
        <source>%1 — fix it, then Resume</source>
        <translation>%1 — 排除后点击继续</translation>
    </message>
    <message>
        <location line="-243"/>
        <source>Invalid configuration: %1</source>
        <translation>无效的配置：%1</translation>
    </message>
    <message>
        <location line="+292"/>
        <source>key moment</source>
        <translation>关键时刻</translation>
    </message>
</context>
<context>
    <name>sf::widgets::ComparisonSummaryModel</name>
    <message>
        <location filename="../widgets/campaign/comparison_model.cpp" line="+34"/>
        <source>error: %1</source>
        <translation>错误：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>finished (%1)</source>
        <translation>已完成（%1）</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>unfinished</source>
        <translation>未完成</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Campaign</source>
        <translation>活动</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Mode</source>
        <translation>模式</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Solved</source>
        <translation>已解决</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>pass@1 / ER</source>
        <translation>pass@1 / ER</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>pass@n / solved</source>
        <translation>pass@n / 已解决</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tokens</source>
        <translation>令牌数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cost</source>
        <translation>费用</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
</context>
<context>
    <name>sf::widgets::ComparisonTaskModel</name>
    <message>
        <location line="+45"/>
        <source>Best speedup of a passing program: %1×</source>
        <translation>通过程序的最佳加速比：%1×</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Task</source>
        <translation>任务</translation>
    </message>
</context>
<context>
    <name>sf::widgets::EngineWorker</name>
    <message>
        <location filename="../widgets/engine/engine_worker.cpp" line="+55"/>
        <source>Chip profile %1: %2</source>
        <translation>芯片配置 %1：%2</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The cost model could not time the program.</source>
        <translation>成本模型无法为该程序计时。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The cost model could not time the program: %1 %2</source>
        <translation>成本模型无法为该程序计时：%1 %2</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>checking</source>
        <translation>正在检查</translation>
    </message>
    <message>
        <location line="+6"/>
        <location line="+18"/>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location line="-6"/>
        <source>generating inputs and reference</source>
        <translation>正在生成输入和参考结果</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>simulating</source>
        <translation>正在模拟</translation>
    </message>
    <message>
        <location line="+17"/>
        <location line="+69"/>
        <source>done</source>
        <translation>完成</translation>
    </message>
    <message>
        <location line="-45"/>
        <source>The document does not load (%1).</source>
        <translation>文档无法加载（%1）。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>input set %1 of %2</source>
        <translation>输入集 %1 / %2</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>simulating and comparing</source>
        <translation>正在模拟并比较</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>estimating cost</source>
        <translation>正在估算成本</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The program does not verify: stage %1, %2.</source>
        <translation>程序未通过验证：阶段 %1，%2。</translation>
    </message>
</context>
<context>
    <name>sf::widgets::EpisodeLineageView</name>
    <message>
        <location filename="../widgets/campaign/episode_lineage_view.cpp" line="+26"/>
        <source>no verdict (interrupted)</source>
        <translation>无判定（已中断）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>fail: %1 %2</source>
        <translation>失败：%1 %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>pass</source>
        <translation>通过</translation>
    </message>
    <message>
        <location line="+1"/>
        <source> · %1 cycles</source>
        <translation> · %1 个周期</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>J / K step · C canonical form · N / P change · ? keys · Esc close</source>
        <translation>J / K 逐步 · C 规范形式 · N / P 改动 · ? 按键 · Esc 关闭</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Episode %1 lineage — %2</source>
        <translation>回合 %1 的谱系 — %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>solved at round %1</source>
        <translation>在第 %1 轮解决</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not solved</source>
        <translation>未解决</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Episode %1 of %2: %3 rounds, %4</source>
        <translation>回合 %1 / %2：%3 轮，%4</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Round %1 → %2 → %3 → adopted %4 (+%5 −%6)</source>
        <translation>第 %1 轮 → %2 → %3 → 采纳 %4（+%5 −%6）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>no program</source>
        <translation>无程序</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>program</source>
        <translation>程序</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The episode has no round yet.</source>
        <translation>该回合还没有轮次。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Round %1: %2</source>
        <translation>第 %1 轮：%2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Retrieved: %1 · adopted: %2</source>
        <translation>检索到：%1 · 采纳：%2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source> · rules used: %1</source>
        <translation> · 使用的规则：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Diagnostics: %1</source>
        <translation>诊断：%1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>(start)</source>
        <translation>（开始）</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>previous program</source>
        <translation>上一个程序</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>round %1</source>
        <translation>第 %1 轮</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>J / K — next / previous round
C — canonical form on / off in the diff
N / P — next / previous change in the diff
Esc — close
? / F1 — this cheat sheet
Opened with Ctrl+L in the trace pane, L / Ctrl+L in the audit pane</source>
        <translation>J / K — 下一轮 / 上一轮
C — 在差异中开关规范形式
N / P — 差异中的下一处 / 上一处改动
Esc — 关闭
? / F1 — 本速查表
在跟踪窗格中用 Ctrl+L 打开，在审核窗格中用 L / Ctrl+L 打开</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Episode lineage keyboard shortcuts</source>
        <translation>回合谱系快捷键</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>No campaign workspace is open</source>
        <translation>没有打开的活动工作区</translation>
    </message>
</context>
<context>
    <name>sf::widgets::GoldenPromotion</name>
    <message>
        <location filename="../widgets/editor/golden_promote.cpp" line="+41"/>
        <source>Not promoted: no golden set file (Preferences → Agent)</source>
        <translation>未加入：没有黄金示例集文件（首选项 → 智能体）</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Not promoted: %1</source>
        <translation>未加入：%1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>promoted %1 to %2 as %3</source>
        <translation>已将 %1 加入 %2，编号 %3</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 already in %2 as %3</source>
        <translation>%1 已在 %2 中，编号 %3</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Not promoted: task &apos;%1&apos; is not in the benchmark catalogue</source>
        <translation>未加入：任务“%1”不在基准目录中</translation>
    </message>
</context>
<context>
    <name>sf::widgets::GraphView</name>
    <message>
        <location filename="../widgets/inspect/graph_view.cpp" line="+131"/>
        <source>Dataflow graph</source>
        <translation>数据流图</translation>
    </message>
    <message numerus="yes">
        <location line="+57"/>
        <source> · %n token(s)</source>
        <translation>
            <numerusform> · %n 个令牌</numerusform>
        </translation>
    </message>
    <message>
        <location line="+10"/>
        <source>%1% busy</source>
        <translation>%1% 忙碌</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>Affinity violation: every stream must be used exactly once</source>
        <translation>违反仿射性：每个流必须恰好使用一次</translation>
    </message>
</context>
<context>
    <name>sf::widgets::IssuesModel</name>
    <message>
        <location filename="../widgets/editor/issues_model.cpp" line="+42"/>
        <source>error</source>
        <translation>错误</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>note</source>
        <translation>提示</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Severity</source>
        <translation>严重性</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Code</source>
        <translation>代码</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Line:Col</source>
        <translation>行:列</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Message</source>
        <translation>消息</translation>
    </message>
</context>
<context>
    <name>sf::widgets::LearningCurves</name>
    <message>
        <location filename="../widgets/campaign/learning_curves.cpp" line="+37"/>
        <source>per iteration</source>
        <translation>按迭代</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>per cumulative tokens</source>
        <translation>按累计令牌</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>pass@1 and pass@n</source>
        <translation>pass@1 与 pass@n</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+339"/>
        <location line="+8"/>
        <source>pass@1</source>
        <translation>pass@1</translation>
    </message>
    <message>
        <location line="-346"/>
        <location line="+347"/>
        <location line="+47"/>
        <source>pass@n</source>
        <translation>pass@n</translation>
    </message>
    <message>
        <location line="-392"/>
        <source>All tasks</source>
        <translation>所有任务</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Speedups</source>
        <translation>加速比</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Fast_1.0, Fast_1.5 and the median speedup, when the campaign&apos;s log has them</source>
        <translation>Fast_1.0、Fast_1.5 和加速比中位数（若活动日志中有）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Open sweep…</source>
        <translation>打开扫描…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A folder written by &apos;campaign sweep&apos;: each variant&apos;s mean over its seeds with a min–max band</source>
        <translation>由“campaign sweep”写入的文件夹：每个变体在其各个种子上的均值，以及最小–最大区间带</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>PNG…</source>
        <translation>PNG…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>SVG…</source>
        <translation>SVG…</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Export:</source>
        <translation>导出：</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>Open a sweep folder</source>
        <translation>打开扫描文件夹</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Open sweep</source>
        <translation>打开扫描</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+5"/>
        <source>Export learning curves</source>
        <translation>导出学习曲线</translation>
    </message>
    <message>
        <location line="-4"/>
        <source>PNG images (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>SVG images (*.svg)</source>
        <translation>SVG 图像 (*.svg)</translation>
    </message>
    <message>
        <location line="+124"/>
        <source>campaign</source>
        <translation>活动</translation>
    </message>
    <message>
        <location line="+77"/>
        <source>%1: no cell of the sweep has a curve yet</source>
        <translation>%1：扫描中还没有任何单元有曲线</translation>
    </message>
    <message numerus="yes">
        <location line="+78"/>
        <source>mean %1 (%n seed(s))</source>
        <translation>
            <numerusform>均值 %1（%n 个种子）</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+8"/>
        <source>ER</source>
        <translation>ER</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+47"/>
        <source>solved</source>
        <translation>已解决</translation>
    </message>
    <message>
        <location line="-41"/>
        <location line="+29"/>
        <source>median speedup</source>
        <translation>加速比中位数</translation>
    </message>
    <message>
        <location line="-9"/>
        <source>cumulative tokens</source>
        <translation>累计令牌</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>episode</source>
        <translation>回合</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>iteration</source>
        <translation>迭代</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>fraction of tasks</source>
        <translation>任务比例</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>fraction of %1 tasks</source>
        <translation>%1 个任务中的比例</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>median speedup (×)</source>
        <translation>加速比中位数（×）</translation>
    </message>
    <message numerus="yes">
        <location line="+20"/>
        <source>min–max over %n seed(s)</source>
        <translation>
            <numerusform>%n 个种子上的最小–最大</numerusform>
        </translation>
    </message>
    <message>
        <location line="+13"/>
        <source>key moments</source>
        <translation>关键时刻</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Sweep: mean over seeds, band = min–max</source>
        <translation>扫描：种子上的均值，区间带 = 最小–最大</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Execution rate over episodes</source>
        <translation>各回合的执行率</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Learning curves</source>
        <translation>学习曲线</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>StepForge learning curves</source>
        <translation>StepForge 学习曲线</translation>
    </message>
</context>
<context>
    <name>sf::widgets::MainWindow</name>
    <message>
        <location filename="../widgets/main_window.cpp" line="+77"/>
        <source>%1 cancelled</source>
        <translation>%1 已取消</translation>
    </message>
    <message>
        <location line="+18"/>
        <location line="+225"/>
        <source>untitled %1</source>
        <translation>未命名 %1</translation>
    </message>
    <message>
        <location line="-194"/>
        <source>Issues</source>
        <translation>问题</translation>
    </message>
    <message>
        <location line="+7"/>
        <location line="+193"/>
        <source>Not verified yet (Run → Verify).</source>
        <translation>尚未验证（运行 → 验证）。</translation>
    </message>
    <message>
        <location line="-184"/>
        <source>Verification</source>
        <translation>验证</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Dataflow Graph</source>
        <translation>数据流图</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Stream Inspector</source>
        <translation>流检查器</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Performance</source>
        <translation>性能</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Tasks</source>
        <translation>任务</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;New from Task…</source>
        <translation>从任务新建(&amp;N)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Open…</source>
        <translation>打开(&amp;O)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Save &amp;As…</source>
        <translation>另存为(&amp;A)…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Insert &amp;Copies</source>
        <translation>插入副本(&amp;C)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ctrl+Shift+C</source>
        <translation>Ctrl+Shift+C</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fix multiple uses of a stream with Copy chains (the guardian&apos;s rewrite)</source>
        <translation>用 Copy 链修复流的多次使用（守护者的重写）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Format Program</source>
        <translation>格式化程序(&amp;F)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ctrl+Shift+F</source>
        <translation>Ctrl+Shift+F</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Preferences…</source>
        <translation>首选项(&amp;P)…</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Run</source>
        <translation>运行(&amp;R)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Check</source>
        <translation>检查(&amp;C)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>F5</source>
        <translation>F5</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Simulate</source>
        <translation>模拟(&amp;S)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>F6</source>
        <translation>F6</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Verify</source>
        <translation>验证(&amp;V)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>F7</source>
        <translation>F7</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>C&amp;ancel</source>
        <translation>取消(&amp;A)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ctrl+.</source>
        <translation>Ctrl+.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>STeP &amp;Manual</source>
        <translation>STeP 手册(&amp;M)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;About StepForge</source>
        <translation>关于 StepForge(&amp;A)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>About StepForge</source>
        <translation>关于 StepForge</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>StepForge %1
A workbench where LLM agents learn to write STeP from their own verified work.</source>
        <translation>StepForge %1
一个让 LLM 智能体从自己经过验证的工作中学习编写 STeP 的工作台。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Program</source>
        <translation>程序</translation>
    </message>
    <message>
        <location line="+54"/>
        <source>Unsaved changes</source>
        <translation>未保存的更改</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>The document has unsaved changes. Save them?</source>
        <translation>文档有未保存的更改。是否保存？</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>untitled</source>
        <translation>未命名</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1%2 — StepForge</source>
        <translation>%1%2 — StepForge</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Cannot open %1: %2</source>
        <translation>无法打开 %1：%2</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Opened %1</source>
        <translation>已打开 %1</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>No bundled task %1</source>
        <translation>没有名为 %1 的内置任务</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Cannot save %1: %2</source>
        <translation>无法保存 %1：%2</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Open task or solution</source>
        <translation>打开任务或解答</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>STeP documents (*.yaml *.yml);;All files (*)</source>
        <translation>STeP 文档 (*.yaml *.yml);;所有文件 (*)</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Save document</source>
        <translation>保存文档</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>STeP documents (*.yaml *.yml)</source>
        <translation>STeP 文档 (*.yaml *.yml)</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>New from Task</source>
        <translation>从任务新建</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Bundled task:</source>
        <translation>内置任务：</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Simulating…</source>
        <translation>正在模拟…</translation>
    </message>
    <message>
        <location line="+8"/>
        <location line="+1"/>
        <source>Verifying…</source>
        <translation>正在验证…</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>no task</source>
        <translation>无任务</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>task %1</source>
        <translation>任务 %1</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>✔ checks pass, %n warning(s)</source>
        <translation>
            <numerusform>✔ 检查通过，%n 个警告</numerusform>
        </translation>
    </message>
    <message>
        <location line="+0"/>
        <source>✔ checks pass</source>
        <translation>✔ 检查通过</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>✘ %n error(s)</source>
        <translation>
            <numerusform>✘ %n 个错误</numerusform>
        </translation>
    </message>
    <message>
        <location line="+21"/>
        <source>PASS — %1: %2 input sets, max abs error %3, max rel error %4, %5 statements (%6 s)</source>
        <translation>通过 — %1：%2 个输入集，最大绝对误差 %3，最大相对误差 %4，%5 条语句（%6 秒）</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>FAIL — %1: stage %2, %3</source>
        <translation>失败 — %1：阶段 %2，%3</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Verification passed</source>
        <translation>验证通过</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Verification failed (%1)</source>
        <translation>验证失败（%1）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 cycles</source>
        <translation>%1 个周期</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>speedup %1</source>
        <translation>加速比 %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not feasible</source>
        <translation>不可行</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Cost model, chip %1 (Performance pane)</source>
        <translation>成本模型，芯片 %1（性能面板）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>no cost report</source>
        <translation>无成本报告</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Simulated %1 (%2, seed %3) in %4 ms</source>
        <translation>已模拟 %1（%2，种子 %3），用时 %4 毫秒</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Simulation failed</source>
        <translation>模拟失败</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The program cannot be rewritten: fix the errors first</source>
        <translation>无法重写程序：请先修复错误</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The document changed during the rewrite; try again</source>
        <translation>重写期间文档已更改，请重试</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Formatted</source>
        <translation>已格式化</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Copies inserted</source>
        <translation>已插入副本</translation>
    </message>
</context>
<context>
    <name>sf::widgets::ManualBrowser</name>
    <message>
        <location filename="../widgets/editor/manual_browser.cpp" line="+14"/>
        <source>STeP Manual</source>
        <translation>STeP 手册</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>(cannot read %1)</source>
        <translation>（无法读取 %1）</translation>
    </message>
</context>
<context>
    <name>sf::widgets::MemoryInspector</name>
    <message>
        <location filename="../widgets/audit/memory_inspector.cpp" line="+38"/>
        <source>All states</source>
        <translation>所有状态</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cold</source>
        <translation>冷</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Validated</source>
        <translation>已验证</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Hot</source>
        <translation>热</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Resident tokens of the hot rules / the hot budget B</source>
        <translation>热规则的常驻令牌数 / 热预算 B</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Import…</source>
        <translation>导入…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Hot budget:</source>
        <translation>热预算：</translation>
    </message>
    <message>
        <location line="+21"/>
        <location line="+221"/>
        <source>Utility over episodes</source>
        <translation>各回合的效用</translation>
    </message>
    <message>
        <location line="-219"/>
        <source>episode</source>
        <translation>回合</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>utility U</source>
        <translation>效用 U</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>The consolidation guard: a consolidation step that would have shrunk the resident context to less than half while dropping recently adopted items is undone</source>
        <translation>整合保护：若某个整合步骤会把常驻上下文缩小到不足一半，同时丢弃最近被采纳的条目，则撤销该步骤</translation>
    </message>
    <message>
        <location line="+47"/>
        <source>Cannot load the memory of %1: %2</source>
        <translation>无法加载 %1 的记忆：%2</translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>%n memory item(s)</source>
        <translation>
            <numerusform>%n 个记忆条目</numerusform>
        </translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Import failed: %1</source>
        <translation>导入失败：%1</translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>Imported %n item(s) from %1</source>
        <translation>
            <numerusform>已从 %1 导入 %n 个条目</numerusform>
        </translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Export failed: %1</source>
        <translation>导出失败：%1</translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>Exported %n item(s) to %1</source>
        <translation>
            <numerusform>已将 %n 个条目导出到 %1</numerusform>
        </translation>
    </message>
    <message>
        <location line="+5"/>
        <location line="+6"/>
        <source>Import memory</source>
        <translation>导入记忆</translation>
    </message>
    <message>
        <location line="-5"/>
        <source>StepForge memory (*.json);;All files (*)</source>
        <translation>StepForge 记忆 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The file %1 is not a valid StepForge memory file and was not imported.

%2</source>
        <translation>文件 %1 不是有效的 StepForge 记忆文件，未导入。

%2</translation>
    </message>
    <message>
        <location line="+4"/>
        <location line="+5"/>
        <source>Export memory</source>
        <translation>导出记忆</translation>
    </message>
    <message>
        <location line="-4"/>
        <source>StepForge memory (*.json)</source>
        <translation>StepForge 记忆 (*.json)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Cannot export the memory to %1.

%2</source>
        <translation>无法将记忆导出到 %1。

%2</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>%1 / %2 tokens (%3%)</source>
        <translation>%1 / %2 个令牌（%3%）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>cold %1 · validated %2 · hot %3</source>
        <translation>冷 %1 · 已验证 %2 · 热 %3</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Consolidation rolled back after episode %1: the resident set was kept (the step would have shrunk the resident context from %2 to %3 tokens and dropped recently adopted %4).</source>
        <translation>第 %1 轮后整合已回滚：保留了常驻集合（该步骤会把常驻上下文从 %2 个词元缩小到 %3 个，并丢弃最近被采纳的 %4）。</translation>
    </message>
    <message numerus="yes">
        <location line="+6"/>
        <source>%n rollback(s) in this campaign.</source>
        <translation>
            <numerusform>本次活动中有 %n 次回滚。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+58"/>
        <source>Utility of %1 over episodes</source>
        <translation>%1 在各回合的效用</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&lt;p&gt;&lt;i&gt;Select a memory item.&lt;/i&gt;&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;i&gt;请选择一个记忆条目。&lt;/i&gt;&lt;/p&gt;</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Source: task %1, episode %2</source>
        <translation>来源：任务 %1，回合 %2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Utility %1 after %2 update(s); retrieved in %3 episode(s), adopted in %4, by %5 operator(s); access %6</source>
        <translation>经过 %2 次更新后效用为 %1；在 %3 个回合中被检索，在 %4 个回合中被采纳，涉及 %5 个算子；访问估计 %6</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Rule</source>
        <translation>规则</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Evidence</source>
        <translation>证据</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Code example</source>
        <translation>代码示例</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Pattern</source>
        <translation>模式</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Resident form (%1 tokens)</source>
        <translation>常驻形式（%1 个令牌）</translation>
    </message>
</context>
<context>
    <name>sf::widgets::MemoryInspectorModel</name>
    <message>
        <location filename="../widgets/audit/memory_inspector_model.cpp" line="+356"/>
        <source>resident tokens (abstracted form); %1 in the retrieval view</source>
        <translation>常驻令牌数（抽象形式）；检索视图中为 %1</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Item</source>
        <translation>条目</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Utility</source>
        <translation>效用</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Retrievals</source>
        <translation>检索次数</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Adoptions</source>
        <translation>采纳次数</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Updates</source>
        <translation>更新次数</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Operators</source>
        <translation>算子</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Access</source>
        <translation>访问</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Tokens</source>
        <translation>令牌数</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Rule</source>
        <translation>规则</translation>
    </message>
</context>
<context>
    <name>sf::widgets::OutputCompareModel</name>
    <message>
        <location filename="../widgets/inspect/stream_inspector_models.cpp" line="+301"/>
        <source>ok</source>
        <translation>正常</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>mismatch</source>
        <translation>不匹配</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>reference NaN</source>
        <translation>参考值为 NaN</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Index</source>
        <translation>索引</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Position</source>
        <translation>位置</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Program</source>
        <translation>程序</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Reference</source>
        <translation>参考</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>|Error|</source>
        <translation>|误差|</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
</context>
<context>
    <name>sf::widgets::OutputListModel</name>
    <message>
        <location line="-134"/>
        <source>size differs</source>
        <translation>大小不同</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>reference NaN</source>
        <translation>参考值为 NaN</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>pass</source>
        <translation>通过</translation>
    </message>
    <message numerus="yes">
        <location line="+0"/>
        <source>%n mismatch(es)</source>
        <translation>
            <numerusform>%n 处不匹配</numerusform>
        </translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Output</source>
        <translation>输出</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Max abs error</source>
        <translation>最大绝对误差</translation>
    </message>
</context>
<context>
    <name>sf::widgets::PerfTimeline</name>
    <message>
        <location filename="../widgets/editor/performance_pane.cpp" line="+98"/>
        <source>Unit timeline</source>
        <translation>单元时间线</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>No timeline</source>
        <translation>无时间线</translation>
    </message>
    <message>
        <location line="+52"/>
        <source>cycles</source>
        <translation>周期</translation>
    </message>
</context>
<context>
    <name>sf::widgets::PerfUnitsModel</name>
    <message>
        <location line="-117"/>
        <source>Bottleneck: the unit with the most busy cycles</source>
        <translation>瓶颈：忙碌周期最多的单元</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Line</source>
        <translation>行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Primitive</source>
        <translation>原语</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stream</source>
        <translation>流</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Busy</source>
        <translation>忙碌</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stall in</source>
        <translation>输入等待</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Blocked out</source>
        <translation>输出阻塞</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tokens in</source>
        <translation>输入令牌</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tokens out</source>
        <translation>输出令牌</translation>
    </message>
</context>
<context>
    <name>sf::widgets::PerformancePane</name>
    <message>
        <location line="+163"/>
        <source>No report yet: verify the program (Run → Verify) to see its cost.</source>
        <translation>尚无报告：请验证程序（运行 → 验证）以查看其成本。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The program changed since this report; verify again (F7) to update it.</source>
        <translation>程序在此报告之后已更改；请重新验证（F7）以更新。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>No cost report.</source>
        <translation>无成本报告。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>line %1: </source>
        <translation>第 %1 行：</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Cycles</source>
        <translation>周期</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>%1 (%2 µs at %3 GHz, chip %4)</source>
        <translation>%1（%2 µs，%3 GHz，芯片 %4）</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 (baseline %2 cycles)</source>
        <translation>%1（基线 %2 个周期）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>unknown: no baseline (%1)</source>
        <translation>未知：无基线（%1）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>none: the program is not feasible (baseline %1 cycles)</source>
        <translation>无：程序不可行（基线 %1 个周期）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Speedup</source>
        <translation>加速比</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Off-chip bytes</source>
        <translation>片外字节</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>%1 read, %2 written</source>
        <translation>读取 %1，写入 %2</translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>(%n deepened channel(s), %1 bytes buffered)</source>
        <translation>
            <numerusform>（%n 个加深通道，缓冲 %1 字节）</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>On-chip bytes</source>
        <translation>片上字节</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>FLOPs</source>
        <translation>FLOPs</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>%1 (allocated compute %2 FLOPs/cycle)</source>
        <translation>%1（已分配算力 %2 FLOPs/周期）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Utilisation</source>
        <translation>利用率</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>feasible</source>
        <translation>可行</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>not feasible</source>
        <translation>不可行</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Feasibility</source>
        <translation>可行性</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Bottleneck</source>
        <translation>瓶颈</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>%1 %2 (line %3), %4 busy cycles</source>
        <translation>%1 %2（第 %3 行），%4 个忙碌周期</translation>
    </message>
</context>
<context>
    <name>sf::widgets::ProgramDiffView</name>
    <message>
        <location filename="../widgets/editor/program_diff_view.cpp" line="+48"/>
        <source>Canonical form</source>
        <translation>规范形式</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Compare both programs in their canonical form (names renamed in definition order, keyword arguments ordered), so renames and layout do not show</source>
        <translation>以规范形式比较两个程序（按定义顺序重命名、关键字参数排序），从而不显示重命名和排版差异</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Previous change</source>
        <translation>上一处改动</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Next change</source>
        <translation>下一处改动</translation>
    </message>
    <message>
        <location line="+93"/>
        <source>Before</source>
        <translation>之前</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>After</source>
        <translation>之后</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>identical</source>
        <translation>完全相同</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>1 change</source>
        <translation>1 处改动</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>%1 changes</source>
        <translation>%1 处改动</translation>
    </message>
    <message>
        <location line="+4"/>
        <source> (canonical form)</source>
        <translation>（规范形式）</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>before shown as written: %1</source>
        <translation>之前按原样显示：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>after shown as written: %1</source>
        <translation>之后按原样显示：%1</translation>
    </message>
</context>
<context>
    <name>sf::widgets::ReplayControls</name>
    <message>
        <location filename="../widgets/campaign/replay_controls.cpp" line="+35"/>
        <source>Key moments of the campaign: activate one to jump to it</source>
        <translation>活动的关键时刻：激活其中一个即可跳转过去</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Previous iteration / episode (←)</source>
        <translation>上一个迭代 / 回合（←）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Next iteration / episode (→)</source>
        <translation>下一个迭代 / 回合（→）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Replay position (events applied)</source>
        <translation>回放位置（已应用的事件）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Pause at key moments</source>
        <translation>在关键时刻暂停</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Previous Episode</source>
        <translation>上一个回合</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Next Episode</source>
        <translation>下一个回合</translation>
    </message>
    <message>
        <location line="+43"/>
        <source>%1 — event %2</source>
        <translation>%1 — 事件 %2</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>event %1 of %2 · %3</source>
        <translation>事件 %1 / %2 · %3</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>part %1 of %2</source>
        <translation>第 %1 部分，共 %2 部分</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>start</source>
        <translation>开始</translation>
    </message>
</context>
<context>
    <name>sf::widgets::RunComparisonView</name>
    <message>
        <location filename="../widgets/campaign/run_comparison_view.cpp" line="+108"/>
        <source>(no agent calls logged for this sample)</source>
        <translation>（该样本没有记录智能体调用）</translation>
    </message>
    <message>
        <location line="+193"/>
        <source>The number each cell shows and colours (M / Shift+M)</source>
        <translation>每个单元格显示并着色的数值（M / Shift+M）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Only tasks that differ</source>
        <translation>仅显示有差异的任务</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Hide the tasks on which every run agrees: attempted, solved and pass@1 (F)</source>
        <translation>隐藏所有运行结果一致的任务：是否尝试、是否解决以及 pass@1（F）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Deltas against this run (B on a cell)</source>
        <translation>相对于此运行的差值（在单元格上按 B）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Metric</source>
        <translation>指标</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Baseline</source>
        <translation>基线</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Enter open · Space mark · D diff · ? keys</source>
        <translation>Enter 打开 · 空格 标记 · D 差异 · ? 按键</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Enter on a cell opens that run&apos;s samples of the task</source>
        <translation>在单元格上按 Enter 打开该运行中此任务的样本</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Iteration</source>
        <translation>迭代</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Temp.</source>
        <translation>温度</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Sample</source>
        <translation>样本</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Verdict</source>
        <translation>判定</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cycles</source>
        <translation>周期</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Speedup</source>
        <translation>加速比</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Tokens</source>
        <translation>令牌数</translation>
    </message>
    <message>
        <location line="+55"/>
        <source>Samples</source>
        <translation>样本</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Program diff</source>
        <translation>程序差异</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Promote to &amp;Golden</source>
        <translation>加入黄金示例(&amp;G)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Verify the cell&apos;s program and add it to the golden set (G)</source>
        <translation>验证该单元格的程序并加入黄金示例集（G）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Promote Sample to &amp;Golden</source>
        <translation>将样本加入黄金示例(&amp;G)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Verify the sample&apos;s program and add it to the golden set (G)</source>
        <translation>验证该样本的程序并加入黄金示例集（G）</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Not in the grid: %1</source>
        <translation>未列入网格：%1</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Choose a run&apos;s cell (not the task column)</source>
        <translation>请选择某次运行的单元格（不是任务列）</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 in %2: %3 samples</source>
        <translation>%2 中的 %1：%3 个样本</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>The run has no sample of this task.</source>
        <translation>该运行没有此任务的样本。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>(no program: %1)</source>
        <translation>（无程序：%1）</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Outputs: task &apos;%1&apos; is not in the bundled catalogue, no reference to compare with</source>
        <translation>输出：任务“%1”不在内置目录中，没有可比较的参考</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1: all %2 values within tolerance; max abs error %3, max rel error %4</source>
        <translation>%1：全部 %2 个值都在容差内；最大绝对误差 %3，最大相对误差 %4</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1: %2 of %3 values differ; max abs error %4, max rel error %5; first mismatch %6 [%7]</source>
        <translation>%1：%3 个值中有 %2 个不同；最大绝对误差 %4，最大相对误差 %5；首个不匹配 %6 [%7]</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>No output compared: %1</source>
        <translation>没有比较任何输出：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Outputs vs reference (verifies):</source>
        <translation>输出与参考对比（通过验证）：</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Outputs vs reference (does not verify):</source>
        <translation>输出与参考对比（未通过验证）：</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>A diff needs two different run cells</source>
        <translation>差异需要两个不同的运行单元格</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1 · %2 · %3</source>
        <translation>%1 · %2 · %3</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>no program</source>
        <translation>无程序</translation>
    </message>
    <message>
        <location line="+4"/>
        <location line="+1"/>
        <source>No program</source>
        <translation>无程序</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Mark a cell with Space (or choose a baseline with B), then D on the other cell</source>
        <translation>用空格标记一个单元格（或用 B 选择基线），然后在另一个单元格上按 D</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Marked %1 in %2: D on another cell diffs them</source>
        <translation>已标记 %2 中的 %1：在另一个单元格上按 D 进行比较</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Mark cleared</source>
        <translation>已清除标记</translation>
    </message>
    <message>
        <location line="+54"/>
        <source>Not promoted: choose a run&apos;s cell (not the task column)</source>
        <translation>未加入：请选择某次运行的单元格（不是任务列）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Not promoted: no sample of %1 in %2 produced a program</source>
        <translation>未加入：%2 中 %1 的样本都没有产生程序</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Not promoted: open a cell (Enter) and choose a sample</source>
        <translation>未加入：请打开一个单元格（Enter）并选择一个样本</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Enter — open the cell: that run&apos;s samples of the task (programs, verdicts, agent calls)
J / K — next / previous sample of the opened cell
Space — mark the current cell as the left side of a diff (again: clear)
D — diff: the marked cell (or two selected cells, or the baseline&apos;s cell) against the current cell
C — canonical form on / off in the program diff
N / P — next / previous change in the program diff
F — only tasks that differ on / off
B — the current cell&apos;s run becomes the baseline (again: no baseline)
M / Shift+M — next / previous metric
G — promote to golden: the current cell&apos;s program (in the sample list: the sample&apos;s program)
Esc — back to the grid
? / F1 — this cheat sheet</source>
        <translation>Enter — 打开单元格：该运行中此任务的样本（程序、判定、智能体调用）
J / K — 已打开单元格的下一个 / 上一个样本
空格 — 将当前单元格标记为差异的左侧（再次按下：清除）
D — 差异：已标记的单元格（或两个选中的单元格，或基线的单元格）与当前单元格比较
C — 在程序差异中开关规范形式
N / P — 程序差异中的下一处 / 上一处改动
F — 开关“仅显示有差异的任务”
B — 将当前单元格所在的运行设为基线（再次按下：取消基线）
M / Shift+M — 下一个 / 上一个指标
G — 加入黄金示例：当前单元格的程序（在样本列表中：该样本的程序）
Esc — 返回网格
? / F1 — 本速查表</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Run comparison keyboard shortcuts</source>
        <translation>运行比较快捷键</translation>
    </message>
</context>
<context>
    <name>sf::widgets::RunGridModel</name>
    <message>
        <location line="-602"/>
        <location line="+181"/>
        <source>not sampled</source>
        <translation>未采样</translation>
    </message>
    <message>
        <location line="-181"/>
        <source>solved</source>
        <translation>已解决</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>unsolved</source>
        <translation>未解决</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 of %2 samples pass</source>
        <translation>%2 个样本中 %1 个正确</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>pass@1 %1</source>
        <translation>pass@1 %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>first pass at sample %1</source>
        <translation>首次正确出现在第 %1 个样本</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 tokens, $%2</source>
        <translation>%1 个令牌，$%2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>best %1× (%2 cycles)</source>
        <translation>最佳 %1×（%2 个周期）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>best %1 cycles</source>
        <translation>最佳 %1 个周期</translation>
    </message>
    <message>
        <location line="+37"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>pass@1</source>
        <translation>pass@1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Samples to first pass</source>
        <translation>首次正确前的样本数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tokens</source>
        <translation>令牌数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cost</source>
        <translation>费用</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Best speedup</source>
        <translation>最佳加速比</translation>
    </message>
    <message>
        <location line="+164"/>
        <source>Task</source>
        <translation>任务</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 (baseline)</source>
        <translation>%1（基线）</translation>
    </message>
</context>
<context>
    <name>sf::widgets::SettingsDialog</name>
    <message>
        <location filename="../widgets/settings_dialog.cpp" line="-100"/>
        <source>Preferences</source>
        <translation>首选项</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>System default (%1)</source>
        <translation>系统默认（%1）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The new language is applied the next time StepForge starts.</source>
        <translation>新语言将在下次启动 StepForge 时生效。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Language:</source>
        <translation>语言(&amp;L)：</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The chip profile the cost model times verified programs on (Performance pane)</source>
        <translation>成本模型为已验证程序计时所用的芯片配置（性能面板）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Chip profile:</source>
        <translation>芯片配置(&amp;C):</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Agent</source>
        <translation>智能体</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Built-in synthesizer (offline)</source>
        <translation>内置合成器（离线）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>OpenAI-compatible endpoint</source>
        <translation>OpenAI 兼容端点</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Anthropic</source>
        <translation>Anthropic</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>e.g. gpt-4o-mini, claude-sonnet-4-5, a local model&apos;s name</source>
        <translation>例如 gpt-4o-mini、claude-sonnet-4-5 或本地模型的名称</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the kind&apos;s default</source>
        <translation>该类型的默认值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>NAME of the environment variable, e.g. OPENAI_API_KEY</source>
        <translation>环境变量的名称，例如 OPENAI_API_KEY</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Only the variable&apos;s name is stored, never the key</source>
        <translation>只保存变量名，从不保存密钥</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A campaign workspace whose memory (retrieval, resident rules) the agent uses</source>
        <translation>智能体使用其记忆（检索、常驻规则）的活动工作区</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The session workspace every round is logged to (trace and audit panes)</source>
        <translation>每一轮都记录到的会话工作区（跟踪和审计面板）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&lt;session&gt;/golden.json</source>
        <translation>&lt;会话&gt;/golden.json</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>&amp;Backend:</source>
        <translation>后端(&amp;B)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Model:</source>
        <translation>模型(&amp;M)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Base &amp;URL:</source>
        <translation>基础 &amp;URL：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>API key &amp;variable:</source>
        <translation>API 密钥变量(&amp;V)：</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>the key itself, kept in the OS keyring (optional)</source>
        <translation>密钥本身，保存在系统密钥环中（可选）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Used when the environment does not set the variable; never written to a file</source>
        <translation>当环境未设置该变量时使用；从不写入文件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Store in keyring</source>
        <translation>存入密钥环</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>API &amp;key:</source>
        <translation>API 密钥(&amp;K)：</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>M&amp;emory workspace:</source>
        <translation>记忆工作区(&amp;E)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Session workspace:</source>
        <translation>会话工作区(&amp;S)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Golden set:</source>
        <translation>黄金示例集(&amp;G)：</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>name the API key variable first: the keyring keeps the key under that name</source>
        <translation>请先填写 API 密钥变量名：密钥环以该名称保存密钥</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>enter the key to store</source>
        <translation>请输入要保存的密钥</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>the agent&apos;s backend needs a model</source>
        <translation>智能体的后端需要指定模型</translation>
    </message>
</context>
<context>
    <name>sf::widgets::StepApis</name>
    <message>
        <location filename="../widgets/editor/step_apis.cpp" line="+92"/>
        <source>dims: %1</source>
        <translation>维度：%1</translation>
    </message>
</context>
<context>
    <name>sf::widgets::StepEditor</name>
    <message>
        <location filename="../widgets/editor/step_editor.cpp" line="+103"/>
        <source>Stream type</source>
        <translation>流类型</translation>
    </message>
</context>
<context>
    <name>sf::widgets::StepLexer</name>
    <message>
        <location filename="../widgets/editor/step_lexer.cpp" line="+43"/>
        <source>Default</source>
        <translation>默认</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Comment</source>
        <translation>注释</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Document key</source>
        <translation>文档键</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Primitive</source>
        <translation>原语</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Keyword</source>
        <translation>关键字</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Task fn</source>
        <translation>任务函数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stream</source>
        <translation>流</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Number</source>
        <translation>数字</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Punctuation</source>
        <translation>标点</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Size symbol</source>
        <translation>尺寸符号</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Primitive parameter</source>
        <translation>原语参数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Text</source>
        <translation>文本</translation>
    </message>
</context>
<context>
    <name>sf::widgets::StreamInspector</name>
    <message>
        <location filename="../widgets/inspect/stream_inspector.cpp" line="+56"/>
        <source>Select a stream to see its tokens</source>
        <translation>选择一个流以查看其令牌</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Token sequence</source>
        <translation>令牌序列</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Streams</source>
        <translation>流</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Show mismatches only</source>
        <translation>仅显示不匹配项</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Outputs vs reference</source>
        <translation>输出与参考对比</translation>
    </message>
</context>
<context>
    <name>sf::widgets::StreamListModel</name>
    <message>
        <location filename="../widgets/inspect/stream_inspector_models.cpp" line="-151"/>
        <source>Stream</source>
        <translation>流</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Dims</source>
        <translation>维度</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Elements</source>
        <translation>元素数</translation>
    </message>
</context>
<context>
    <name>sf::widgets::TaskBrowser</name>
    <message>
        <location filename="../widgets/editor/task_browser.cpp" line="+51"/>
        <source>Filter tasks (id, title, tag)</source>
        <translation>筛选任务（ID、标题、标签）</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Tasks</source>
        <translation>任务</translation>
    </message>
</context>
<context>
    <name>sf::widgets::TaskBrowserModel</name>
    <message numerus="yes">
        <location filename="../widgets/editor/task_browser_model.cpp" line="+161"/>
        <source>%n task(s)</source>
        <translation>
            <numerusform>%n 个任务</numerusform>
        </translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1/%2</source>
        <translation>%1/%2</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>Paper task: %1</source>
        <translation>论文任务：%1</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>—</source>
        <translation>—</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>solved</source>
        <translation>已解决</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>unsolved</source>
        <translation>未解决</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Task</source>
        <translation>任务</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Tags</source>
        <translation>标签</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Success rate</source>
        <translation>成功率</translation>
    </message>
</context>
<context>
    <name>sf::widgets::TokenTableModel</name>
    <message>
        <location filename="../widgets/inspect/stream_inspector_models.cpp" line="+88"/>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Position (i0, …)</source>
        <translation>位置 (i0, …)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Stop</source>
        <translation>停止符</translation>
    </message>
</context>
<context>
    <name>sf::widgets::TraceModel</name>
    <message>
        <location filename="../widgets/campaign/trace_model.cpp" line="+76"/>
        <source>error: %1</source>
        <translation>错误：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>…</source>
        <translation>…</translation>
    </message>
    <message>
        <location line="+6"/>
        <source> (cache)</source>
        <translation>（缓存）</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Suspicious: a speedup above %1× should be checked by a human</source>
        <translation>可疑：超过 %1× 的加速比应由人工检查</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Role</source>
        <translation>角色</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Task</source>
        <translation>任务</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Iteration</source>
        <translation>迭代</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Sample</source>
        <translation>样本</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Verdict</source>
        <translation>判定</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cycles</source>
        <translation>周期</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Speedup</source>
        <translation>加速比</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tokens</source>
        <translation>令牌数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Latency (s)</source>
        <translation>延迟（秒）</translation>
    </message>
</context>
<context>
    <name>sf::widgets::TracePane</name>
    <message>
        <location filename="../widgets/campaign/trace_pane.cpp" line="+40"/>
        <source>All roles</source>
        <translation>所有角色</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>All verdicts</source>
        <translation>所有判定</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Pass</source>
        <translation>通过</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fail</source>
        <translation>失败</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Pending</source>
        <translation>待定</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Task id</source>
        <translation>任务 ID</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Search…</source>
        <translation>搜索…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>in responses</source>
        <translation>在响应中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Also search the responses and programs (slower on large campaigns)</source>
        <translation>同时搜索响应和程序（大型活动中较慢）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Follow</source>
        <translation>跟随</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Scroll to the newest call</source>
        <translation>滚动到最新的调用</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Episode &amp;Lineage</source>
        <translation>回合谱系(&amp;L)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ctrl+L</source>
        <translation>Ctrl+L</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Promote to &amp;Golden</source>
        <translation>加入黄金示例(&amp;G)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Ctrl+G</source>
        <translation>Ctrl+G</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Verify the call&apos;s program and add it to the golden set (Ctrl+G)</source>
        <translation>验证该调用的程序并加入黄金示例集（Ctrl+G）</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Response</source>
        <translation>响应</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Program</source>
        <translation>程序</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Guardian diff</source>
        <translation>守护者差异</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Verdict</source>
        <translation>判定</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Prompt</source>
        <translation>提示词</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Reasoning</source>
        <translation>推理</translation>
    </message>
    <message>
        <location line="+58"/>
        <source>Not promoted: select a call first</source>
        <translation>未加入：请先选择一个调用</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>%1 of %2 calls</source>
        <translation>%1 / %2 次调用</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>(the guardian changed nothing)</source>
        <translation>（守护者未做任何更改）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 — %2, iteration %3, sample %4 (temperature index %5)
</source>
        <translation>%1 — %2，迭代 %3，样本 %4（温度索引 %5）
</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>pending</source>
        <translation>待定</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>role %1, %2 tokens, %3 s, $%4%5
</source>
        <translation>角色 %1，%2 个令牌，%3 秒，$%4%5
</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>, from the cache</source>
        <translation>，来自缓存</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>finish reason %1</source>
        <translation>结束原因 %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>resident rules used: %1</source>
        <translation>使用的常驻规则：%1</translation>
    </message>
</context>
<context>
    <name>sf::widgets::VerifySetsModel</name>
    <message>
        <location filename="../widgets/editor/issues_model.cpp" line="+24"/>
        <source>%1 (alternative sizes)</source>
        <translation>%1（替代尺寸）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>pass</source>
        <translation>通过</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>FAIL</source>
        <translation>失败</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Sizes</source>
        <translation>尺寸</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Seed</source>
        <translation>种子</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Max abs error</source>
        <translation>最大绝对误差</translation>
    </message>
</context>
</TS>

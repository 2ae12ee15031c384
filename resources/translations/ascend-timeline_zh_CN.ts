<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>Appearance</name>
    <message>
        <source>T&amp;heme</source>
        <translation>主题(&amp;H)</translation>
    </message>
    <message>
        <source>--theme must be &apos;system&apos;, &apos;light&apos; or &apos;dark&apos;, not &apos;%1&apos;</source>
        <translation>--theme 必须是 &apos;system&apos;、&apos;light&apos; 或 &apos;dark&apos;，而不是 &apos;%1&apos;</translation>
    </message>
    <message>
        <source>--lang must be one of %1, not &apos;%2&apos;</source>
        <translation>--lang 必须是 %1 之一，而不是 &apos;%2&apos;</translation>
    </message>
    <message>
        <source>The window is shown in the chosen language; the choice is kept for the next start.</source>
        <translation>窗口已切换为所选语言；该选择将在下次启动时保留。</translation>
    </message>
</context>
<context>
    <name>CommandLine</name>
    <message>
        <source>--screenshot %1: cannot write .%2 images (the formats are: %3)</source>
        <translation>--screenshot %1：无法写入 .%2 格式的图像（可用格式：%3）</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>%1: no step &apos;%2&apos; (ProfilerStep numbers found: %3)</source>
        <translation>%1：没有 step &apos;%2&apos;（找到的 ProfilerStep 编号：%3）</translation>
    </message>
    <message>
        <source>--diff needs two inputs: BASE NEW (got %1)</source>
        <translation>--diff 需要两个输入：BASE NEW（实际为 %1 个）</translation>
    </message>
    <message>
        <source>--diff takes --json or --csv OUT, not both</source>
        <translation>--diff 只能使用 --json 或 --csv OUT 之一，不能同时使用</translation>
    </message>
    <message>
        <source>--steps needs two ProfilerStep numbers A,B (e.g. 5,50), not &apos;%1&apos;</source>
        <translation>--steps 需要两个 ProfilerStep 编号 A,B（例如 5,50），而不是 &apos;%1&apos;</translation>
    </message>
    <message>
        <source>%1: no framework ops (cpu_op or user_annotation events) in %2; --diff compares profiles recorded by the PyTorch profiler (torch_npu or Kineto)</source>
        <translation>%1：%2 中没有框架算子（cpu_op 或 user_annotation 事件）；--diff 比较由 PyTorch profiler（torch_npu 或 Kineto）采集的性能数据</translation>
    </message>
</context>
<context>
    <name>Commands</name>
    <message>
        <source>&amp;Open…</source>
        <translation>打开(&amp;O)…</translation>
    </message>
    <message>
        <source>open a trace file</source>
        <translation>打开跟踪文件</translation>
    </message>
    <message>
        <source>Open &amp;Folder…</source>
        <translation>打开文件夹(&amp;F)…</translation>
    </message>
    <message>
        <source>open a profiling result folder</source>
        <translation>打开性能数据结果目录</translation>
    </message>
    <message>
        <source>Open in &amp;New Window…</source>
        <translation>在新窗口中打开(&amp;N)…</translation>
    </message>
    <message>
        <source>open a trace in another window (e.g. to compare steps)</source>
        <translation>在另一个窗口中打开跟踪文件（例如用于比较迭代）</translation>
    </message>
    <message>
        <source>Open &amp;Bundled Sample</source>
        <translation>打开内置示例(&amp;B)</translation>
    </message>
    <message>
        <source>open the bundled AlexNet sample</source>
        <translation>打开内置的 AlexNet 示例</translation>
    </message>
    <message>
        <source>reload the result from its other export</source>
        <translation>从该结果的另一种导出格式重新加载</translation>
    </message>
    <message>
        <source>reload the result decoding its raw PROF_* data</source>
        <translation>解析该结果的 PROF_* 原始数据并重新加载</translation>
    </message>
    <message>
        <source>&amp;Export View as PNG…</source>
        <translation>将视图导出为 PNG(&amp;E)…</translation>
    </message>
    <message>
        <source>save the timeline as shown</source>
        <translation>按当前显示保存时间线</translation>
    </message>
    <message>
        <source>Export View as S&amp;VG…</source>
        <translation>将视图导出为 SVG(&amp;V)…</translation>
    </message>
    <message>
        <source>save the timeline as vector graphics</source>
        <translation>将时间线保存为矢量图</translation>
    </message>
    <message>
        <source>Open Sess&amp;ion…</source>
        <translation>打开会话(&amp;I)…</translation>
    </message>
    <message>
        <source>open a saved session and its data</source>
        <translation>打开已保存的会话及其数据</translation>
    </message>
    <message>
        <source>&amp;Save Session…</source>
        <translation>保存会话(&amp;S)…</translation>
    </message>
    <message>
        <source>save the session (view, lanes, markers, colour rules, comparison)</source>
        <translation>保存会话（视图、泳道、标记、颜色规则、比较）</translation>
    </message>
    <message>
        <source>&amp;Close</source>
        <translation>关闭(&amp;C)</translation>
    </message>
    <message>
        <source>close the trace (back to the start page)</source>
        <translation>关闭跟踪文件（返回起始页）</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>quit</source>
        <translation>退出</translation>
    </message>
    <message>
        <source>&amp;Find…</source>
        <translation>查找(&amp;F)…</translation>
    </message>
    <message>
        <source>find slices by name (Enter / Shift+Enter step through matches in time order)</source>
        <translation>按名称查找切片（Enter / Shift+Enter 按时间顺序逐个浏览匹配项）</translation>
    </message>
    <message>
        <source>Zoom &amp;In</source>
        <translation>放大(&amp;I)</translation>
    </message>
    <message>
        <source>zoom in by 1.25× (centred on the mouse when it is over the timeline); held: by the time held</source>
        <translation>放大 1.25×（鼠标位于时间线上时以鼠标为中心）；按住：按按住的时长持续放大</translation>
    </message>
    <message>
        <source>Zoom &amp;Out</source>
        <translation>缩小(&amp;O)</translation>
    </message>
    <message>
        <source>zoom out by 1.25×; held: by the time held</source>
        <translation>缩小 1.25×；按住：按按住的时长持续缩小</translation>
    </message>
    <message>
        <source>Pan &amp;Left</source>
        <translation>向左平移(&amp;L)</translation>
    </message>
    <message>
        <source>pan left by 10 % of the visible width; held: by the time held</source>
        <translation>向左平移可见宽度的 10 %；按住：按按住的时长持续平移</translation>
    </message>
    <message>
        <source>Pan &amp;Right</source>
        <translation>向右平移(&amp;R)</translation>
    </message>
    <message>
        <source>pan right by 10 % of the visible width; held: by the time held</source>
        <translation>向右平移可见宽度的 10 %；按住：按按住的时长持续平移</translation>
    </message>
    <message>
        <source>Show &amp;Everything</source>
        <translation>显示全部(&amp;E)</translation>
    </message>
    <message>
        <source>show everything (far outliers such as stray ts=0 events are not fitted)</source>
        <translation>显示全部内容（远离主体的离群事件，如零散的 ts=0 事件，不计入适应范围）</translation>
    </message>
    <message>
        <source>fit the selected slice (or the selected range)</source>
        <translation>使视图适应所选切片（或所选区间）</translation>
    </message>
    <message>
        <source>&amp;Undo Zoom</source>
        <translation>撤销缩放(&amp;U)</translation>
    </message>
    <message>
        <source>undo the last zoom (a burst of w/s presses counts as one)</source>
        <translation>撤销上一次缩放（连续按下的 w/s 计为一次）</translation>
    </message>
    <message>
        <source>Clear Range Selection</source>
        <translation>清除区间选择</translation>
    </message>
    <message>
        <source>clear the range selection (in the find bar: close it)</source>
        <translation>清除区间选择（在查找栏中：关闭查找栏）</translation>
    </message>
    <message>
        <source>&amp;Mark Selection</source>
        <translation>标记所选内容(&amp;M)</translation>
    </message>
    <message>
        <source>mark the range selection, else the selected slice, as a named range (Markers dock)</source>
        <translation>将所选区间（若无则为所选切片）标记为命名区间（标记面板）</translation>
    </message>
    <message>
        <source>drop a flag at the time under the mouse (else the view&apos;s centre)</source>
        <translation>在鼠标所指的时间处放置旗标（否则放在视图中央）</translation>
    </message>
    <message>
        <source>colour slices whose name matches a pattern</source>
        <translation>为名称匹配指定模式的切片着色</translation>
    </message>
    <message>
        <source>&amp;Previous Step</source>
        <translation>上一个迭代(&amp;P)</translation>
    </message>
    <message>
        <source>previous step, fitted (of the selected slice&apos;s rank, else the first)</source>
        <translation>跳到上一个迭代并适应视图（取所选切片所在卡的迭代，否则取第一张卡）</translation>
    </message>
    <message>
        <source>&amp;Next Step</source>
        <translation>下一个迭代(&amp;N)</translation>
    </message>
    <message>
        <source>next step, fitted</source>
        <translation>跳到下一个迭代并适应视图</translation>
    </message>
    <message>
        <source>&amp;Compare Steps…</source>
        <translation>比较迭代(&amp;C)…</translation>
    </message>
    <message>
        <source>compare two steps side by side</source>
        <translation>并排比较两个迭代</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>详情</translation>
    </message>
    <message>
        <source>show or hide the Details dock</source>
        <translation>显示或隐藏详情面板</translation>
    </message>
    <message>
        <source>Range statistics</source>
        <translation>区间统计</translation>
    </message>
    <message>
        <source>show or hide the Range statistics dock</source>
        <translation>显示或隐藏区间统计面板</translation>
    </message>
    <message>
        <source>Kernels</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>show or hide the Kernels dock</source>
        <translation>显示或隐藏算子面板</translation>
    </message>
    <message>
        <source>Tables</source>
        <translation>表格</translation>
    </message>
    <message>
        <source>show or hide the Tables dock</source>
        <translation>显示或隐藏表格面板</translation>
    </message>
    <message>
        <source>Charts</source>
        <translation>图表</translation>
    </message>
    <message>
        <source>show or hide the Charts dock</source>
        <translation>显示或隐藏图表面板</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>迭代</translation>
    </message>
    <message>
        <source>show or hide the Steps dock</source>
        <translation>显示或隐藏迭代面板</translation>
    </message>
    <message>
        <source>Markers</source>
        <translation>标记</translation>
    </message>
    <message>
        <source>show or hide the Markers dock</source>
        <translation>显示或隐藏标记面板</translation>
    </message>
    <message>
        <source>Collection</source>
        <translation>采集信息</translation>
    </message>
    <message>
        <source>show or hide the Collection dock</source>
        <translation>显示或隐藏采集信息面板</translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <source>list every command and its keys</source>
        <translation>列出所有命令及其按键</translation>
    </message>
    <message>
        <source>&amp;About</source>
        <translation>关于(&amp;A)</translation>
    </message>
    <message>
        <source>the version</source>
        <translation>版本信息</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>in Range statistics: copy the selected rows as TSV</source>
        <translation>在区间统计中：将所选行复制为 TSV</translation>
    </message>
    <message>
        <source>Delete Marker</source>
        <translation>删除标记</translation>
    </message>
    <message>
        <source>in Markers: delete the selected marker</source>
        <translation>在标记面板中：删除所选标记</translation>
    </message>
    <message>
        <source>Export Table as CSV…</source>
        <translation>将表格导出为 CSV…</translation>
    </message>
    <message>
        <source>any table&apos;s context menu: the rows as shown, as CSV</source>
        <translation>任意表格的右键菜单：将当前显示的行导出为 CSV</translation>
    </message>
    <message>
        <source>Export Diff by &amp;Name as CSV…</source>
        <translation>将按名称汇总的差异导出为 CSV(&amp;N)…</translation>
    </message>
    <message>
        <source>compare window: the diff by kernel name as CSV</source>
        <translation>比较窗口：将按算子名称汇总的差异导出为 CSV</translation>
    </message>
    <message>
        <source>Export Diff per &amp;Kernel as CSV…</source>
        <translation>将逐算子差异导出为 CSV(&amp;K)…</translation>
    </message>
    <message>
        <source>compare window: the diff per kernel pair as CSV</source>
        <translation>比较窗口：将每对算子的差异导出为 CSV</translation>
    </message>
    <message>
        <source>close the compare window</source>
        <translation>关闭比较窗口</translation>
    </message>
    <message>
        <source>Next Match</source>
        <translation>下一个匹配项</translation>
    </message>
    <message>
        <source>in the find bar: the next match in time</source>
        <translation>在查找栏中：时间上的下一个匹配项</translation>
    </message>
    <message>
        <source>Enter</source>
        <translation>Enter</translation>
    </message>
    <message>
        <source>Previous Match</source>
        <translation>上一个匹配项</translation>
    </message>
    <message>
        <source>in the find bar: the previous match in time</source>
        <translation>在查找栏中：时间上的上一个匹配项</translation>
    </message>
    <message>
        <source>Shift+Enter</source>
        <translation>Shift+Enter</translation>
    </message>
    <message>
        <source>Zoom at the Mouse</source>
        <translation>以鼠标为中心缩放</translation>
    </message>
    <message>
        <source>zoom at the mouse</source>
        <translation>以鼠标位置为中心缩放</translation>
    </message>
    <message>
        <source>Ctrl+Wheel</source>
        <translation>Ctrl+滚轮</translation>
    </message>
    <message>
        <source>Scroll Lanes</source>
        <translation>滚动泳道</translation>
    </message>
    <message>
        <source>scroll lanes; Shift+Wheel pans</source>
        <translation>滚动泳道；Shift+滚轮为平移</translation>
    </message>
    <message>
        <source>Wheel</source>
        <translation>滚轮</translation>
    </message>
    <message>
        <source>Pan</source>
        <translation>平移</translation>
    </message>
    <message>
        <source>pan</source>
        <translation>平移</translation>
    </message>
    <message>
        <source>Middle drag, Shift+drag</source>
        <translation>中键拖动、Shift+拖动</translation>
    </message>
    <message>
        <source>Select a Slice</source>
        <translation>选择切片</translation>
    </message>
    <message>
        <source>select a slice: its details and flow arrows (click a flow in Details to jump)</source>
        <translation>选择切片：显示其详情和连线箭头（在详情中单击连线可跳转）</translation>
    </message>
    <message>
        <source>Click</source>
        <translation>单击</translation>
    </message>
    <message>
        <source>Select a Range</source>
        <translation>选择区间</translation>
    </message>
    <message>
        <source>select a time range: statistics by name (sortable; Ctrl+C copies as TSV)</source>
        <translation>选择时间区间：按名称统计（可排序；Ctrl+C 复制为 TSV）</translation>
    </message>
    <message>
        <source>Drag across the timeline</source>
        <translation>在时间线上拖动</translation>
    </message>
    <message>
        <source>Collapse a Group</source>
        <translation>折叠分组</translation>
    </message>
    <message>
        <source>collapse / expand the process group</source>
        <translation>折叠 / 展开进程分组</translation>
    </message>
    <message>
        <source>Click a group header</source>
        <translation>单击分组标题</translation>
    </message>
    <message>
        <source>Lane Menu</source>
        <translation>泳道菜单</translation>
    </message>
    <message>
        <source>Right-click a lane</source>
        <translation>右键单击泳道</translation>
    </message>
    <message>
        <source>Reorder Processes</source>
        <translation>调整进程顺序</translation>
    </message>
    <message>
        <source>reorder the processes of a rank (kept in sessions)</source>
        <translation>调整某张卡内进程的顺序（保存在会话中）</translation>
    </message>
    <message>
        <source>Drag a process header up or down</source>
        <translation>上下拖动进程标题</translation>
    </message>
    <message>
        <source>Re&amp;load from Other Source (Database ↔ Text)</source>
        <translation>从另一种导出重新加载（数据库 ↔ 文本）(&amp;L)</translation>
    </message>
    <message>
        <source>Reload from Raw &amp;Data (PROF_* slices)</source>
        <translation>从原始数据重新加载（PROF_* 数据）(&amp;D)</translation>
    </message>
    <message>
        <source>Export &amp;Whole Trace Height as PNG…</source>
        <translation>将整个跟踪高度导出为 PNG(&amp;W)…</translation>
    </message>
    <message>
        <source>save the timeline with every lane, also those scrolled out of sight</source>
        <translation>保存包含所有泳道的时间线（包括滚动到视野之外的泳道）</translation>
    </message>
    <message>
        <source>Fi&amp;t Selection</source>
        <translation>适应所选内容(&amp;T)</translation>
    </message>
    <message>
        <source>Drop a Fla&amp;g</source>
        <translation>放置旗标(&amp;G)</translation>
    </message>
    <message>
        <source>Colour Rule&amp;s…</source>
        <translation>颜色规则(&amp;S)…</translation>
    </message>
    <message>
        <source>&amp;System Theme</source>
        <translation>跟随系统主题(&amp;S)</translation>
    </message>
    <message>
        <source>follow the desktop&apos;s theme</source>
        <translation>跟随桌面主题</translation>
    </message>
    <message>
        <source>&amp;Light</source>
        <translation>浅色(&amp;L)</translation>
    </message>
    <message>
        <source>light window and timeline</source>
        <translation>浅色窗口和时间线</translation>
    </message>
    <message>
        <source>&amp;Dark</source>
        <translation>深色(&amp;D)</translation>
    </message>
    <message>
        <source>dark window and timeline</source>
        <translation>深色窗口和时间线</translation>
    </message>
    <message>
        <source>System &amp;Language</source>
        <translation>跟随系统语言(&amp;L)</translation>
    </message>
    <message>
        <source>the desktop&apos;s language (Chinese or English)</source>
        <translation>桌面的语言（中文或英文）</translation>
    </message>
    <message>
        <source>&amp;English</source>
        <translation>&amp;English</translation>
    </message>
    <message>
        <source>English user interface</source>
        <translation>英文界面</translation>
    </message>
    <message>
        <source>简体中文(&amp;C)</source>
        <translation>简体中文(&amp;C)</translation>
    </message>
    <message>
        <source>Simplified Chinese user interface</source>
        <translation>简体中文界面</translation>
    </message>
    <message>
        <source>Insights</source>
        <translation>洞察</translation>
    </message>
    <message>
        <source>show or hide the Insights dock (performance problems found automatically)</source>
        <translation>显示或隐藏“洞察”面板（自动发现的性能问题）</translation>
    </message>
    <message>
        <source>Previous Lane</source>
        <translation>上一泳道</translation>
    </message>
    <message>
        <source>select the lane above and its slice at the selected slice&apos;s time (else the view&apos;s centre)</source>
        <translation>选择上方的泳道及其在所选切片时间处的切片（无选择时取视图中心）</translation>
    </message>
    <message>
        <source>Next Lane</source>
        <translation>下一泳道</translation>
    </message>
    <message>
        <source>select the lane below and its slice at the same time</source>
        <translation>选择下方的泳道及其在同一时间的切片</translation>
    </message>
    <message>
        <source>Next Slice on the Lane</source>
        <translation>泳道上的下一个切片</translation>
    </message>
    <message>
        <source>select the next slice of the same depth on the lane</source>
        <translation>选择泳道上同一深度的下一个切片</translation>
    </message>
    <message>
        <source>Previous Slice on the Lane</source>
        <translation>泳道上的上一个切片</translation>
    </message>
    <message>
        <source>select the previous slice of the same depth on the lane</source>
        <translation>选择泳道上同一深度的上一个切片</translation>
    </message>
    <message>
        <source>Next Occurrence</source>
        <translation>下一次出现</translation>
    </message>
    <message>
        <source>select the next slice with the selected slice&apos;s name, on any lane (in time order)</source>
        <translation>选择与所选切片同名的下一个切片（任意泳道，按时间顺序）</translation>
    </message>
    <message>
        <source>Previous Occurrence</source>
        <translation>上一次出现</translation>
    </message>
    <message>
        <source>select the previous slice with the selected slice&apos;s name</source>
        <translation>选择与所选切片同名的上一个切片</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>show or hide the Memory dock</source>
        <translation>显示或隐藏内存面板</translation>
    </message>
    <message>
        <source>Pan with the Wheel</source>
        <translation>用滚轮平移</translation>
    </message>
    <message>
        <source>pan left or right</source>
        <translation>向左或向右平移</translation>
    </message>
    <message>
        <source>Shift+Wheel, horizontal wheel</source>
        <translation>Shift+滚轮、水平滚轮</translation>
    </message>
    <message>
        <source>Select a Range on Chosen Lanes</source>
        <translation>在选定泳道上选择区间</translation>
    </message>
    <message>
        <source>select a time range on the lanes the drag crosses only: they are tinted, and the statistics and the slice list count only their slices</source>
        <translation>只在拖动经过的泳道上选择时间区间：这些泳道会着色显示，统计和切片列表只计入它们的切片</translation>
    </message>
    <message>
        <source>Ctrl+drag across lanes</source>
        <translation>Ctrl+跨泳道拖动</translation>
    </message>
    <message>
        <source>Show All-Zero Counters</source>
        <translation>显示全零计数器</translation>
    </message>
    <message>
        <source>show or hide the process&apos;s counter series that are zero throughout</source>
        <translation>显示或隐藏该进程中始终为零的计数器序列</translation>
    </message>
    <message>
        <source>Click an &quot;all-zero series hidden&quot; row</source>
        <translation>单击“已隐藏全零序列”行</translation>
    </message>
    <message>
        <source>pin its process to the top / unpin, hide the process or the thread lane, show hidden lanes; with a range selected: restrict the range to the lane, add or remove it, or return to all lanes</source>
        <translation>将其进程置顶或取消置顶，隐藏进程或线程泳道，显示隐藏的泳道；已选区间时：将区间限制在该泳道、添加或移除该泳道，或恢复为全部泳道</translation>
    </message>
    <message>
        <source>Prepared Cac&amp;he Folder…</source>
        <translation>预处理缓存文件夹(&amp;H)…</translation>
    </message>
    <message>
        <source>open prepared clusters from this folder, as with --cache DIR (kept for the next starts)</source>
        <translation>从此文件夹打开预处理过的集群，与 --cache DIR 相同（下次启动时仍然使用）</translation>
    </message>
    <message>
        <source>Stop &amp;Using the Prepared Cache Folder</source>
        <translation>停止使用预处理缓存文件夹(&amp;U)</translation>
    </message>
    <message>
        <source>forget the prepared cache folder (loads use the usual snapshot cache)</source>
        <translation>不再使用预处理缓存文件夹（加载使用常规快照缓存）</translation>
    </message>
    <message>
        <source>O&amp;verview</source>
        <translation>概览(&amp;V)</translation>
    </message>
    <message>
        <source>show the Overview: where each step&apos;s time went and the top findings (the first page after a load)</source>
        <translation>显示概览：每一步的时间花在哪里以及主要发现（加载后的第一个页面）</translation>
    </message>
    <message>
        <source>&amp;Diff by Framework Op…</source>
        <translation>按框架算子对比(&amp;D)…</translation>
    </message>
    <message>
        <source>compare two steps or profiles op by op: diff table, accumulated delta, both timelines</source>
        <translation>逐算子比较两个迭代或两份性能数据：差异表、累计差值、两条时间线</translation>
    </message>
    <message>
        <source>&amp;Export Op Diff as CSV…</source>
        <translation>导出算子差异为 CSV(&amp;E)…</translation>
    </message>
    <message>
        <source>op diff window: the diff table as shown, as CSV</source>
        <translation>算子差异窗口：按当前显示将差异表导出为 CSV</translation>
    </message>
    <message>
        <source>Show &amp;Timelines Side by Side</source>
        <translation>并排显示时间线(&amp;T)</translation>
    </message>
    <message>
        <source>op diff window: open both steps&apos; timelines in the compare window</source>
        <translation>算子差异窗口：在对比窗口中打开两个迭代的时间线</translation>
    </message>
    <message>
        <source>Query</source>
        <translation>查询</translation>
    </message>
    <message>
        <source>show or hide the Query dock (SQL over everything loaded)</source>
        <translation>显示或隐藏“查询”停靠窗口（对已加载的全部数据执行 SQL）</translation>
    </message>
    <message>
        <source>Run Query</source>
        <translation>运行查询</translation>
    </message>
    <message>
        <source>in Query: run the SQL of the editor</source>
        <translation>在“查询”中：运行编辑器中的 SQL</translation>
    </message>
    <message>
        <source>in Query: copy the selected rows as TSV</source>
        <translation>在“查询”中：将选中的行复制为 TSV</translation>
    </message>
</context>
<context>
    <name>Core</name>
    <message>
        <source>not JSON (%1 at byte %2)</source>
        <translation>不是 JSON（字节 %2 处：%1）</translation>
    </message>
    <message>
        <source>not an Ascend Timeline session (no &quot;ascendTimelineSession&quot; version)</source>
        <translation>不是 Ascend Timeline 会话文件（没有 &quot;ascendTimelineSession&quot; 版本）</translation>
    </message>
    <message>
        <source>session version %1 is newer than this program understands (%2)</source>
        <translation>会话版本 %1 比本程序支持的版本（%2）新</translation>
    </message>
    <message>
        <source>the session names no trace file or folder</source>
        <translation>会话中没有指定 trace 文件或文件夹</translation>
    </message>
    <message>
        <source>%1 duplicate events (the same event in several timeline files) were merged</source>
        <translation>合并了 %1 个重复事件（同一事件出现在多个时间线文件中）</translation>
    </message>
    <message>
        <source>%1 events have a time more than 146 years from 1970 and were skipped</source>
        <translation>%1 个事件的时间距 1970 年超过 146 年，已跳过</translation>
    </message>
    <message>
        <source>%1 kernel table rows have a start time more than 146 years from 1970 (kept, clamped)</source>
        <translation>%1 行算子表的开始时间距 1970 年超过 146 年（已保留并截断到可表示范围）</translation>
    </message>
    <message>
        <source>%1 B (begin) events have no matching E; they are shown running to the end of the trace</source>
        <translation>%1 个 B（开始）事件没有匹配的 E，显示为一直持续到 trace 结束</translation>
    </message>
    <message>
        <source>%1 E (end) events have no matching B and were ignored</source>
        <translation>%1 个 E（结束）事件没有匹配的 B，已忽略</translation>
    </message>
    <message>
        <source>%1 events lie more than a day away from the rest (e.g. ts=0); they are kept but not used to fit the view</source>
        <translation>%1 个事件与其余事件相距超过一天（例如 ts=0）；已保留，但不用于适配视图</translation>
    </message>
    <message>
        <source>%1 flow starts have no finish</source>
        <translation>%1 个流起点没有终点</translation>
    </message>
    <message>
        <source>%1 flow finishes have no start</source>
        <translation>%1 个流终点没有起点</translation>
    </message>
    <message>
        <source>%1 flow ends could not be bound to a slice</source>
        <translation>%1 个流端点无法绑定到切片</translation>
    </message>
    <message>
        <source>%1 of %2 kernel rows of the summary tables could not be joined to a timeline slice</source>
        <translation>汇总表的 %2 行算子中有 %1 行无法关联到时间线切片</translation>
    </message>
    <message>
        <source>Queue depth (%1)</source>
        <translation>队列深度（%1）</translation>
    </message>
    <message>
        <source>%1 is %2, not a finite number; written as null</source>
        <translation>%1 为 %2，不是有限数值；已写为 null</translation>
    </message>
    <message>
        <source>the session&apos;s path is empty: it names no trace file or folder</source>
        <translation>会话的路径为空：未指定轨迹文件或文件夹</translation>
    </message>
    <message>
        <source>device work no op launched: computing</source>
        <translation>无算子下发的设备工作：计算</translation>
    </message>
    <message>
        <source>device work no op launched: communication</source>
        <translation>无算子下发的设备工作：通信</translation>
    </message>
    <message>
        <source>device work no op launched: memcpy/memset</source>
        <translation>无算子下发的设备工作：内存拷贝/内存置位</translation>
    </message>
    <message>
        <source>device work no op launched: other</source>
        <translation>无算子下发的设备工作：其他</translation>
    </message>
    <message>
        <source>ops matched by %1 inside matched parents, level by level (%2 levels)</source>
        <translation>在已匹配的父算子内按%1逐层匹配算子（共 %2 层）</translation>
    </message>
    <message>
        <source>name and input shapes</source>
        <translation>名称和输入形状</translation>
    </message>
    <message>
        <source>name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>; exact LCS on %1 differing stretch(es)</source>
        <translation>；%1 个差异段使用精确最长公共子序列</translation>
    </message>
    <message>
        <source>; long stretches: %1 cut at unique names (patience), %2 aligned by a banded LCS, %3 matched by occurrence</source>
        <translation>；长序列段：%1 个按唯一名称切分（patience），%2 个用带状最长公共子序列对齐，%3 个按出现次序匹配</translation>
    </message>
    <message>
        <source>ops of one side only (not under a matched op)</source>
        <translation>仅一侧存在的算子（不在已匹配算子之下）</translation>
    </message>
    <message>
        <source>idle (no device work)</source>
        <translation>空闲（无设备工作）</translation>
    </message>
    <message>
        <source>concurrent device work (counted twice above)</source>
        <translation>并发的设备工作（上方重复计入的部分）</translation>
    </message>
    <message>
        <source>%1: no framework ops (cpu_op) in %2</source>
        <translation>%1：%2 中没有框架算子（cpu_op）</translation>
    </message>
    <message>
        <source>whole profile</source>
        <translation>整个性能数据</translation>
    </message>
    <message>
        <source>SQLite could not open an in-memory database</source>
        <translation>SQLite 无法打开内存数据库</translation>
    </message>
    <message>
        <source>The query was cancelled.</source>
        <translation>查询已取消。</translation>
    </message>
    <message>
        <source>SQLite could not write the database</source>
        <translation>SQLite 无法写出数据库</translation>
    </message>
    <message>
        <source>The export was cancelled.</source>
        <translation>导出已取消。</translation>
    </message>
    <message>
        <source>the %1 groups differ in size (%2 and %3 ranks)</source>
        <translation>%1 各组大小不同（%2 与 %3 个 Rank）</translation>
    </message>
    <message>
        <source>rank %1 is in two %2 groups</source>
        <translation>Rank %1 属于两个 %2 组</translation>
    </message>
    <message>
        <source>no %1 group lists rank(s) %2 (each rank&apos;s profiler_metadata.json lists only some groups)</source>
        <translation>没有 %1 组包含 Rank %2（每个 Rank 的 profiler_metadata.json 只列出部分组）</translation>
    </message>
    <message>
        <source>distributed_args: tp %1 × cp %2 × dp %3 × pp %4 is not the world size %5</source>
        <translation>distributed_args：tp %1 × cp %2 × dp %3 × pp %4 不等于 world size %5</translation>
    </message>
    <message>
        <source>rank %1 is beyond distributed_args&apos; world size %2</source>
        <translation>Rank %1 超出 distributed_args 的 world size %2</translation>
    </message>
    <message>
        <source>no parallel_group_info in the ranks&apos; metadata</source>
        <translation>各 Rank 的元数据中没有 parallel_group_info</translation>
    </message>
    <message>
        <source>the parallel groups do not place the %1 ranks on a grid</source>
        <translation>并行组无法将 %1 个 Rank 排成网格</translation>
    </message>
    <message>
        <source>no distributed_args</source>
        <translation>没有 distributed_args</translation>
    </message>
    <message>
        <source>distributed_args has no dimension above 1</source>
        <translation>distributed_args 中没有大于 1 的维度</translation>
    </message>
    <message>
        <source>Mean step time</source>
        <translation>平均步骤时间</translation>
    </message>
    <message>
        <source>Computing</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>Communication (not overlapped)</source>
        <translation>通信（未被掩盖）</translation>
    </message>
    <message>
        <source>Free</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>Wait ratio</source>
        <translation>等待比例</translation>
    </message>
    <message>
        <source>Peak memory</source>
        <translation>内存峰值</translation>
    </message>
    <message>
        <source>all ranks</source>
        <translation>所有 rank</translation>
    </message>
    <message>
        <source>no expert-parallel group: no exp / tp_exp / mp_exp / dp_modulo_exp group in parallel_group_info and no expert_model_parallel_size above 1 in distributed_args</source>
        <translation>没有专家并行组：parallel_group_info 中没有 exp / tp_exp / mp_exp / dp_modulo_exp 组，distributed_args 的 expert_model_parallel_size 也不大于 1</translation>
    </message>
    <message>
        <source>no GroupedMatmul op in the ranks&apos; kernel tables (kernel_details.csv): the MoE layers&apos; tokens per rank come from its rows</source>
        <translation>各 rank 的算子表（kernel_details.csv）中没有 GroupedMatmul 算子：MoE 层每个 rank 的 token 数取自这些行</translation>
    </message>
    <message>
        <source>rank %1&apos;s timeline could not be loaded: %2</source>
        <translation>rank %1 的时间线无法加载：%2</translation>
    </message>
    <message>
        <source>rank %1 has no timeline loaded (no trace_view.json or profiler database in its folder)</source>
        <translation>rank %1 没有已加载的时间线（其文件夹中没有 trace_view.json 或 profiler 数据库）</translation>
    </message>
    <message>
        <source>rank %1&apos;s timeline has no slice of %2</source>
        <translation>rank %1 的时间线中没有 %2 的切片</translation>
    </message>
    <message>
        <source>rank %1 has no host data: collect with the CPU activity (torch_npu ProfilerActivity.CPU, MindSpeed --profile-with-cpu) to see when its host launched %2</source>
        <translation>rank %1 没有 Host 侧数据：请开启 CPU 采集（torch_npu ProfilerActivity.CPU，MindSpeed --profile-with-cpu）以查看其 Host 何时下发 %2</translation>
    </message>
    <message>
        <source>rank %1&apos;s timeline links no host launch to %2 (no HostToDevice or async_npu flow ends on it)</source>
        <translation>rank %1 的时间线中没有与 %2 关联的 Host 下发（没有以它为终点的 HostToDevice 或 async_npu 连线）</translation>
    </message>
    <message>
        <source>host-bound: rank %1&apos;s host launched %2 (%3) %4 ms after rank %5 had arrived at the op, while its device stream was free</source>
        <translation>Host 瓶颈：rank %1 的 Host 在 rank %5 到达该算子 %4 ms 之后才下发 %2（%3），而其设备流当时空闲</translation>
    </message>
    <message>
        <source>device-bound: on rank %1 the last task before the op on %2, %3, ended %4 ms after rank %5 had arrived at the op</source>
        <translation>Device 瓶颈：rank %1 上 %2 中该算子之前的最后一个任务 %3 在 rank %5 到达该算子 %4 ms 之后才结束</translation>
    </message>
    <message>
        <source>; the host had launched it %1 ms before that task ended</source>
        <translation>；Host 已在该任务结束前 %1 ms 下发了它</translation>
    </message>
    <message>
        <source>, itself %1 ms after rank %2 had arrived (the host was behind too)</source>
        <translation>，而这次下发本身也比 rank %2 到达晚 %1 ms（Host 同样滞后）</translation>
    </message>
    <message>
        <source> (the op&apos;s own stream is not recorded: %1 is the stream busy last before it)</source>
        <translation>（未记录该算子自身所在的流：%1 是在它之前最后忙碌的流）</translation>
    </message>
    <message>
        <source>host-bound</source>
        <translation>Host 瓶颈</translation>
    </message>
    <message>
        <source>device-bound</source>
        <translation>Device 瓶颈</translation>
    </message>
    <message>
        <source>undetermined</source>
        <translation>无法判定</translation>
    </message>
    <message>
        <source>: its arrival is the reference</source>
        <translation>：需要以其到达时间为参照</translation>
    </message>
    <message>
        <source>neither: rank %1&apos;s host launched %2 %3 ms before rank %4 arrived and its stream %5 was free %6 ms before; the op waited on something else (e.g. an event of another stream)</source>
        <translation>均不是：rank %1 的 Host 在 rank %4 到达前 %3 ms 已下发 %2，其流 %5 也已提前 %6 ms 空闲；该算子在等待其他事物（例如另一条流的事件）</translation>
    </message>
    <message>
        <source>(none found)</source>
        <translation>（未找到）</translation>
    </message>
</context>
<context>
    <name>InsightText</name>
    <message>
        <source>3σ</source>
        <translation>3σ</translation>
    </message>
    <message>
        <source>Dixon Q at 99.5 %</source>
        <translation>Dixon Q 检验（99.5 %）</translation>
    </message>
    <message numerus="yes">
        <source>%1 and %n more rank(s)</source>
        <translation>
            <numerusform>%1 及另外 %n 个 Rank</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Insights</name>
    <message>
        <source>AI CPU operators on the critical path</source>
        <translation>关键路径上的 AI CPU 算子</translation>
    </message>
    <message>
        <source>%1 AI CPU operator run(s) kept the device waiting for %2 ms while no other device task ran. AI CPU operators are far slower than AI Core ones.</source>
        <translation>%1 次 AI CPU 算子执行期间没有其他设备任务运行，设备因此等待了 %2 ms。AI CPU 算子远慢于 AI Core 算子。</translation>
    </message>
    <message>
        <source>Find the operator&apos;s AI Core variant: change the input data type (float instead of double, int32 instead of int64), move the operation off the step, or replace it by an equivalent torch_npu API.</source>
        <translation>改用该算子的 AI Core 实现：更换输入数据类型（用 float 代替 double，用 int32 代替 int64），把该操作移出训练步，或换成等价的 torch_npu API。</translation>
    </message>
    <message>
        <source>Block Dim does not fill the AI cores</source>
        <translation>Block Dim 未占满 AI 核</translation>
    </message>
    <message>
        <source>%1 kernel run(s) (%2 ms) have a Block Dim that is not a multiple of the core count, so their last wave leaves cores idle: about %3 ms of core time.</source>
        <translation>%1 次核函数执行（%2 ms）的 Block Dim 不是核数的整数倍，最后一轮有核空闲：约 %3 ms 的核时间。</translation>
    </message>
    <message>
        <source>Tune the operator&apos;s tiling so Block Dim is a multiple of the core count (AOE tuning, or a shape the operator tiles evenly).</source>
        <translation>调整算子的切分，使 Block Dim 为核数的整数倍（使用 AOE 调优，或选用能均匀切分的形状）。</translation>
    </message>
    <message>
        <source>Operators bound by no pipe</source>
        <translation>没有任何流水线成为瓶颈的算子</translation>
    </message>
    <message>
        <source>%1 kernel run(s) longer than %2 µs (%3 ms) keep no pipe (cube, vector, scalar, MTE) busier than %4 %: they wait on latency, synchronisation or poor tiling.</source>
        <translation>%1 次长于 %2 µs 的核函数执行（%3 ms）没有任何流水线（cube、vector、scalar、MTE）的占用率超过 %4 %：它们受限于时延、同步或不佳的切分。</translation>
    </message>
    <message>
        <source>Tune these operators with AOE, check their tiling and data formats, or fuse them with their neighbours.</source>
        <translation>用 AOE 调优这些算子，检查其切分和数据格式，或将其与相邻算子融合。</translation>
    </message>
    <message>
        <source>AI Core frequency drops during kernels</source>
        <translation>核函数执行期间 AI Core 频率下降</translation>
    </message>
    <message>
        <source>The AI Core clock fell to %1 MHz (rated %2 MHz) while %3 operator(s) ran, slowing them by about %4 ms.</source>
        <translation>%3 个算子运行时 AI Core 频率降至 %1 MHz（额定 %2 MHz），使其变慢约 %4 ms。</translation>
    </message>
    <message>
        <source>Check the device&apos;s power and temperature (npu-smi info): a power cap, overheating or a power-saving mode lowers the clock.</source>
        <translation>检查设备的功耗和温度（npu-smi info）：功耗上限、过热或节能模式都会降低频率。</translation>
    </message>
    <message>
        <source>SDMA transfers not aligned to 512 bytes</source>
        <translation>SDMA 传输未按 512 字节对齐</translation>
    </message>
    <message>
        <source>%1 SDMA transfer(s) across chips (%2 ms, %3 % of the SDMA transfer time) move a size that is not a multiple of 512 bytes, which lowers their bandwidth.</source>
        <translation>%1 次跨片 SDMA 传输（%2 ms，占 SDMA 传输时间的 %3 %）的数据量不是 512 字节的整数倍，降低了带宽。</translation>
    </message>
    <message>
        <source>Pad the communicated tensors (or the bucket size, e.g. DDP bucket_cap_mb) so each transfer is a multiple of 512 bytes.</source>
        <translation>填充通信张量（或调整桶大小，例如 DDP 的 bucket_cap_mb），使每次传输为 512 字节的整数倍。</translation>
    </message>
    <message>
        <source>Device idle: the host dispatches too slowly</source>
        <translation>设备空闲：主机下发过慢</translation>
    </message>
    <message>
        <source>The device stage was idle (Free) for %1 ms of %2 ms (%3 %); %4 % of the kernels waited longer for their launch than they ran. The device is waiting for the host.</source>
        <translation>设备阶段 %2 ms 中有 %1 ms 空闲（Free，%3 %）；%4 % 的核函数等待下发的时间长于其运行时间。设备在等待主机。</translation>
    </message>
    <message>
        <source>Enable the task queue (export TASK_QUEUE_ENABLE=2), bind the host threads to cores (export CPU_AFFINITY_CONF=1), remove host synchronisation (.item(), .cpu(), printing tensors) from the step, and fuse small operators or raise the batch size so each launch carries more work.</source>
        <translation>开启任务队列（export TASK_QUEUE_ENABLE=2），将主机线程绑核（export CPU_AFFINITY_CONF=1），去掉训练步中的主机同步（.item()、.cpu()、打印张量），并融合小算子或增大 batch，使每次下发承载更多计算。</translation>
    </message>
    <message>
        <source>Host synchronisation leaves the device idle</source>
        <translation>主机同步导致设备空闲</translation>
    </message>
    <message numerus="yes">
        <source>%n synchronisation call(s) (aclrtSynchronizeDevice / aclrtSynchronizeStream) block the host until the device drains; the device then stays idle until the host launches again: %1 ms in all.</source>
        <translation>
            <numerusform>%n 次同步调用（aclrtSynchronizeDevice / aclrtSynchronizeStream）使主机阻塞直到设备执行完毕；之后设备一直空闲到主机再次下发：共 %1 ms。</numerusform>
        </translation>
    </message>
    <message>
        <source>Remove synchronisation from the training step: avoid .item(), .cpu(), torch.npu.synchronize() and printing tensors; make sure ASCEND_LAUNCH_BLOCKING is not set to 1.</source>
        <translation>去掉训练步中的同步：避免 .item()、.cpu()、torch.npu.synchronize() 和打印张量；确认 ASCEND_LAUNCH_BLOCKING 未设为 1。</translation>
    </message>
    <message>
        <source>Operators are compiled while training (dynamic shape)</source>
        <translation>训练中在线编译算子（动态形状）</translation>
    </message>
    <message>
        <source>AscendCL@aclopCompileAndExecute ran %1 times (%2 ms): operators are compiled online, usually because their shapes change from step to step.</source>
        <translation>AscendCL@aclopCompileAndExecute 执行了 %1 次（%2 ms）：算子在线编译，通常是因为形状在各步之间变化。</translation>
    </message>
    <message>
        <source>Call torch_npu.npu.set_compile_mode(jit_compile=False) and torch_npu.npu.config.allow_internal_format = False at the start of the script, and keep input shapes fixed (pad to a few bucket sizes).</source>
        <translation>在脚本开头调用 torch_npu.npu.set_compile_mode(jit_compile=False) 并设置 torch_npu.npu.config.allow_internal_format = False，并保持输入形状固定（填充到少数几个分桶大小）。</translation>
    </message>
    <message>
        <source>Python optimizer %1 has a fused NPU equivalent</source>
        <translation>Python 优化器 %1 有对应的 NPU 融合版本</translation>
    </message>
    <message>
        <source>Replace torch.optim.%1 by %2 (same arguments), which updates all parameters in a few fused kernels.</source>
        <translation>用 %2（参数相同）替换 torch.optim.%1，它用少数几个融合核函数更新全部参数。</translation>
    </message>
    <message>
        <source>SyncBatchNorm synchronises every batch-norm layer</source>
        <translation>SyncBatchNorm 对每个批归一化层做同步</translation>
    </message>
    <message>
        <source>SyncBatchNorm ran %1 times (%2 ms); each call gathers statistics from every rank.</source>
        <translation>SyncBatchNorm 执行了 %1 次（%2 ms）；每次调用都要从所有 rank 收集统计量。</translation>
    </message>
    <message>
        <source>Use the efficient SyncBatchNorm of torch_npu (see the msprof-analyze advisor&apos;s SyncBatchNorm note) or plain BatchNorm when the per-rank batch is large enough.</source>
        <translation>使用 torch_npu 的高效 SyncBatchNorm（参见 msprof-analyze advisor 的 SyncBatchNorm 说明），或在每个 rank 的 batch 足够大时使用普通 BatchNorm。</translation>
    </message>
    <message>
        <source>Slow dataloader</source>
        <translation>数据加载慢</translation>
    </message>
    <message>
        <source>%1 dataloader call(s) took at least %2 ms each (%3 ms in all); the device waits for the input batch.</source>
        <translation>%1 次数据加载调用每次至少耗时 %2 ms（共 %3 ms）；设备在等待输入数据。</translation>
    </message>
    <message>
        <source>Raise DataLoader num_workers, set pin_memory=True and persistent_workers=True, and move heavy preprocessing out of the training loop.</source>
        <translation>增大 DataLoader 的 num_workers，设置 pin_memory=True 和 persistent_workers=True，并把繁重的预处理移出训练循环。</translation>
    </message>
    <message>
        <source>Device streams wait for the host</source>
        <translation>设备流在等待主机</translation>
    </message>
    <message>
        <source>Launch work earlier: enable the task queue (TASK_QUEUE_ENABLE=2), remove host synchronisation from the step, and overlap data loading with compute.</source>
        <translation>更早下发任务：开启任务队列（TASK_QUEUE_ENABLE=2），去掉训练步中的主机同步，并让数据加载与计算重叠。</translation>
    </message>
    <message>
        <source>Launch delay outliers</source>
        <translation>下发时延异常值</translation>
    </message>
    <message>
        <source>Of %1 launches, the delay from host launch to device start has median %2 µs, p90 %3 µs, p99 %4 µs, max %5 µs; %6 launch(es) lie above %7 µs (Q3 + 3 IQR).</source>
        <translation>在 %1 次下发中，从主机下发到设备开始执行的时延中位数为 %2 µs，p90 为 %3 µs，p99 为 %4 µs，最大 %5 µs；有 %6 次下发超过 %7 µs（Q3 + 3 IQR）。</translation>
    </message>
    <message>
        <source>A long delay means the stream was still busy with earlier work (a deep queue) or the task waited for an event; look at what ran on the stream before each outlier.</source>
        <translation>时延长说明该流仍在执行之前的任务（队列较深）或任务在等待事件；请查看每个异常值之前该流上运行的内容。</translation>
    </message>
    <message numerus="yes">
        <source>Optimizer.step#%1.step ran %n time(s) for %2 ms; it updates each parameter with separate small operators.</source>
        <translation>
            <numerusform>Optimizer.step#%1.step 执行了 %n 次，共 %2 ms；它用多个独立的小算子逐个更新参数。</numerusform>
        </translation>
    </message>
    <message>
        <source>Most frequent kernel sequences per host operator</source>
        <translation>各主机算子最常见的核函数序列</translation>
    </message>
    <message>
        <source>The most frequent sequence is %1 → [%2], launched %3 of %4 times; the occurrences are its first instance. The data lists the top sequence of each host operator.</source>
        <translation>最常见的序列是 %1 → [%2]，在 %4 次中下发了 %3 次；出现位置为其第一次实例。数据中列出了每个主机算子最常见的序列。</translation>
    </message>
    <message>
        <source>A long sequence repeated many times is a candidate for a fused operator or a torch_npu fused API.</source>
        <translation>多次重复的长序列适合替换为融合算子或 torch_npu 融合 API。</translation>
    </message>
    <message>
        <source>computing</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>communication</source>
        <translation>通信</translation>
    </message>
    <message>
        <source>free time</source>
        <translation>空闲时间</translation>
    </message>
    <message>
        <source>step %1: </source>
        <translation>第 %1 步：</translation>
    </message>
    <message>
        <source>Slow rank: rank %1</source>
        <translation>慢 rank：rank %1</translation>
    </message>
    <message>
        <source>Open the slow rank&apos;s timeline and compare it with a fast rank of the same group (Compare steps): look for a slower device (frequency, temperature), more or longer kernels (uneven data), or host-side stalls.</source>
        <translation>打开慢 rank 的时间线，与同组的快 rank 对比（比较迭代）：检查设备是否变慢（频率、温度）、核函数是否更多或更长（数据不均衡），或主机侧是否停顿。</translation>
    </message>
    <message>
        <source>%1stage %2 computes %3 ms more than stage %4</source>
        <translation>%1阶段 %2 的计算比阶段 %4 多 %3 ms</translation>
    </message>
    <message>
        <source>Pipeline stages are unbalanced</source>
        <translation>流水线阶段负载不均衡</translation>
    </message>
    <message>
        <source>Pipeline stage %1 computes %2 ms per step against %3 ms for stage %4, so the lighter stage waits about %5 ms in its pipeline communication.</source>
        <translation>流水线阶段 %1 每步计算 %2 ms，而阶段 %4 为 %3 ms，因此较轻的阶段在流水线通信中约等待 %5 ms。</translation>
    </message>
    <message>
        <source>Move layers from the heavier stage to the lighter one (e.g. Megatron&apos;s --decoder-first-pipeline-num-layers / an uneven layer split), or account for the embedding and loss layers of the first and last stage.</source>
        <translation>把较重阶段的层移到较轻的阶段（例如 Megatron 的 --decoder-first-pipeline-num-layers / 非均匀切分层），或考虑首尾阶段的 embedding 层和 loss 层。</translation>
    </message>
    <message>
        <source>%1%2 link %3 → %4: %5 GB/s (median %6 GB/s)</source>
        <translation>%1%2 链路 %3 → %4：%5 GB/s（中位数 %6 GB/s）</translation>
    </message>
    <message>
        <source>Slow communication link(s)</source>
        <translation>慢通信链路</translation>
    </message>
    <message>
        <source>Check the slow link&apos;s hardware and topology (HCCS / RDMA port errors, a link running at reduced width, traffic from other jobs), and the HCCL algorithm chosen (HCCL_ALGO).</source>
        <translation>检查慢链路的硬件和拓扑（HCCS / RDMA 端口错误、链路降宽运行、其他作业的流量）以及所选的 HCCL 算法（HCCL_ALGO）。</translation>
    </message>
    <message>
        <source>Small %1 communication packets on rank %2</source>
        <translation>rank %2 上的 %1 通信小包</translation>
    </message>
    <message>
        <source>%1 of %2 %3 communication operators (%4 %) of rank %5 move less than %6 MB each; their transfers took %7 ms. Small packets use the link&apos;s bandwidth poorly: each one pays the full latency.</source>
        <translation>rank %5 的 %2 个 %3 通信算子中有 %1 个（%4 %）每次传输不足 %6 MB，其传输耗时 %7 ms。小包无法充分利用链路带宽：每个包都要付出完整的时延。</translation>
    </message>
    <message>
        <source>Communicate fewer, larger tensors: fuse small collectives (a larger gradient bucket, e.g. DDP bucket_cap_mb), concatenate small tensors before a collective, or overlap them with compute.</source>
        <translation>减少通信次数、增大每次通信的张量：融合小的集合通信（更大的梯度桶，例如 DDP bucket_cap_mb），在集合通信前拼接小张量，或让其与计算重叠。</translation>
    </message>
    <message>
        <source>RDMA retransmission suspected</source>
        <translation>疑似 RDMA 重传</translation>
    </message>
    <message>
        <source>%1 communication operator(s) took at least %2 ms on every rank while an RDMA transfer took more than %2 ms: the network retransmitted packets.</source>
        <translation>%1 个通信算子在每个 rank 上都耗时至少 %2 ms，且有 RDMA 传输耗时超过 %2 ms：网络发生了重传。</translation>
    </message>
    <message>
        <source>Check the RDMA network of the ranks named: link errors, congestion or packet loss (hccn_tool -i &lt;device&gt; -stat -g, the switch ports), and the retransmission settings HCCL_RDMA_TIMEOUT / HCCL_RDMA_RETRY_CNT.</source>
        <translation>检查所列 rank 的 RDMA 网络：链路错误、拥塞或丢包（hccn_tool -i &lt;device&gt; -stat -g、交换机端口），以及重传设置 HCCL_RDMA_TIMEOUT / HCCL_RDMA_RETRY_CNT。</translation>
    </message>
    <message>
        <source>Communication competes with MatMul for bandwidth on rank %1</source>
        <translation>rank %1 上通信与 MatMul 争抢带宽</translation>
    </message>
    <message>
        <source>%1 SDMA communication operator(s) of rank %2 ran below %3 GB/s while MatMul kernels ran (%4 ms of overlap): computation and communication compete for memory bandwidth.</source>
        <translation>rank %2 的 %1 个 SDMA 通信算子在 MatMul 核函数运行期间带宽低于 %3 GB/s（重叠 %4 ms）：计算与通信在争抢内存带宽。</translation>
    </message>
    <message>
        <source>Reorder the overlap so large MatMuls do not run under bandwidth-bound collectives (schedule the communication earlier or later), or reduce the communicated volume.</source>
        <translation>调整重叠方式，使大的 MatMul 不与受带宽限制的集合通信同时运行（提前或推后通信），或减少通信量。</translation>
    </message>
    <message>
        <source>Operators run with dynamic shapes</source>
        <translation>算子以动态 shape 运行</translation>
    </message>
    <message>
        <source>All %1 operators with an OP State are dynamic-shape operators (none is static), so they are compiled at run time: %2 operator compilation call(s) took %3 ms.</source>
        <translation>带 OP State 的 %1 个算子全部是动态 shape 算子（没有静态算子），因此在运行时编译：%2 次算子编译调用耗时 %3 ms。</translation>
    </message>
    <message>
        <source>Use the precompiled binary operators: call torch_npu.npu.set_compile_mode(jit_compile=False) (and torch_npu.npu.config.allow_internal_format = False) before the model runs, or keep the input shapes fixed.</source>
        <translation>使用预编译的二进制算子：在模型运行前调用 torch_npu.npu.set_compile_mode(jit_compile=False)（并设置 torch_npu.npu.config.allow_internal_format = False），或保持输入 shape 固定。</translation>
    </message>
    <message>
        <source>Operators allocate and free memory repeatedly within a step</source>
        <translation>算子在一个迭代内反复申请和释放内存</translation>
    </message>
    <message numerus="yes">
        <source>%n operator(s) allocate device memory and free it again within the same step at least %1 times each (%2 allocations in all), e.g. %3 with %4. This churns the caching allocator and fragments its memory.</source>
        <translation>
            <numerusform>%n 个算子在同一迭代内各自申请并释放设备内存至少 %1 次（共 %2 次申请），例如 %3 有 %4 次。这会频繁扰动缓存分配器并造成内存碎片。</numerusform>
        </translation>
    </message>
    <message>
        <source>Reuse buffers: preallocate them outside the step, use in-place or out= variants, fuse the small ops (fused optimizers for _foreach ops), and set PYTORCH_NPU_ALLOC_CONF=expandable_segments:True against fragmentation.</source>
        <translation>复用缓冲区：在迭代外预先分配，使用原地或 out= 版本的算子，融合小算子（_foreach 算子改用融合优化器），并设置 PYTORCH_NPU_ALLOC_CONF=expandable_segments:True 以减少碎片。</translation>
    </message>
    <message>
        <source>high</source>
        <translation>高</translation>
    </message>
    <message>
        <source>medium</source>
        <translation>中</translation>
    </message>
    <message>
        <source>low</source>
        <translation>低</translation>
    </message>
    <message>
        <source>[%1] %2  (%3)</source>
        <translation>[%1] %2  (%3)</translation>
    </message>
    <message>
        <source>time at stake: none (informational)</source>
        <translation>涉及时间：无（仅供参考）</translation>
    </message>
    <message>
        <source>fix: %1</source>
        <translation>修复：%1</translation>
    </message>
    <message>
        <source>rank %1  %2</source>
        <translation>rank %1  %2</translation>
    </message>
    <message>
        <source>  at %1 us</source>
        <translation>  位于 %1 us</translation>
    </message>
    <message>
        <source>... %1 more occurrence(s)</source>
        <translation>……另有 %1 处</translation>
    </message>
    <message>
        <source>%1rank %2, %3 longer than the fastest of %4</source>
        <translation>%1rank %2 的%3时间长于 %4 中最快的 rank</translation>
    </message>
    <message numerus="yes">
        <source>%n slow rank(s) found among ranks that should run alike (the same pipeline stage or data-parallel group). The worst: rank %1 spends %2 ms more on %3 than the fastest of %4.</source>
        <translation>
            <numerusform>在本应表现一致的 rank（同一流水线阶段或数据并行组）中发现 %n 个慢 rank。最慢的是 rank %1：其%3时间比 %4 中最快的 rank 多 %2 ms。</numerusform>
        </translation>
    </message>
    <message>
        <source>Ranks %1 communicate longer in that step: they wait for it in their collectives.</source>
        <translation>rank %1 在该步骤中的通信时间更长：它们在集合通信中等待它。</translation>
    </message>
    <message numerus="yes">
        <source>%n link(s) run below %1 % of the median bandwidth of their transport type. At the median bandwidth the one that lost most in each step would have finished %2 ms sooner (summed over the steps; the links of one step run side by side).</source>
        <translation>
            <numerusform>%n 条链路的带宽低于同类传输方式中位数带宽的 %1 %。若以中位数带宽传输，每个步骤中损失最多的链路可提前 %2 ms 完成（按步骤累加；同一步骤的链路并行传输）。</numerusform>
        </translation>
    </message>
    <message>
        <source>%1%2 of rank %3 exceeds rank %4&apos;s by %5 ms (%6 % of the mean step)</source>
        <translation>%1rank %3 的%2比 rank %4 多 %5 ms（占平均步骤时间的 %6 %）</translation>
    </message>
    <message>
        <source>msprof-analyze&apos;s rule: ranks differ by more than %1 %</source>
        <translation>msprof-analyze 规则：rank 之间相差超过 %1 %</translation>
    </message>
    <message numerus="yes">
        <source>msprof-analyze&apos;s advisor compares all ranks at once: (max − min) / mean step time above %1 % in %n step dimension(s). The largest: %2 of rank %3 exceeds rank %4&apos;s by %5 ms (%6 % of the mean step). Ranks of different pipeline stages do different work, so this rule alone names no slow rank.</source>
        <translation>
            <numerusform>msprof-analyze 的 advisor 同时比较所有 rank：在 %n 个步骤维度上（最大值 − 最小值）/ 平均步骤时间超过 %1 %。最大的一项：rank %3 的%2比 rank %4 多 %5 ms（占平均步骤时间的 %6 %）。不同流水线阶段的 rank 承担的工作不同，因此仅凭此规则不能认定慢 rank。</numerusform>
        </translation>
    </message>
    <message>
        <source>Shown to match msprof-analyze&apos;s cluster report; act on the slow rank and stage imbalance findings, which compare ranks of one stage or group.</source>
        <translation>列出以便与 msprof-analyze 的集群报告对照；请依据慢 rank 和阶段不均衡的发现采取措施，它们只比较同一阶段或同一组内的 rank。</translation>
    </message>
    <message>
        <source>%1 (%2 ms)</source>
        <translation>%1（%2 ms）</translation>
    </message>
    <message>
        <source>%1%2: ranks %3 wait for rank %4</source>
        <translation>%1%2：rank %3 等待 rank %4</translation>
    </message>
    <message>
        <source>Ranks wait in collectives, most for rank %1</source>
        <translation>rank 在集合通信中等待，等待最多的是 rank %1</translation>
    </message>
    <message numerus="yes">
        <source>In %n collective(s) a rank&apos;s Wait Time Ratio (wait / (wait + transit) of communication.json) exceeds %1: it waited for the rank that waited least. The longest: rank %2 waits %3 ms for rank %4 in %5. The data shows who arrived late, not why.</source>
        <translation>
            <numerusform>在 %n 个集合通信中，有 rank 的等待时间比（communication.json 中的 wait / (wait + transit)）超过 %1：它在等待等待时间最短的那个 rank（即最晚到达者）。最长的一次：rank %2 在 %5 中等待 rank %4 %3 ms。数据只能说明谁到得晚，不能说明原因。</numerusform>
        </translation>
    </message>
    <message>
        <source>Open the waiting rank and the rank it waits for on one timeline at that op (double-click the occurrence on the cluster page) and compare what each ran before the collective.</source>
        <translation>在同一时间线上打开等待的 rank 和被等待的 rank 并定位到该算子（在集群页面双击该条目），比较它们在该集合通信之前各自执行的内容。</translation>
    </message>
    <message>
        <source>communication not overlapped</source>
        <translation>未被掩盖的通信</translation>
    </message>
    <message>
        <source>memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>unknown part</source>
        <translation>未知部分</translation>
    </message>
    <message>
        <source>time at stake: none of its own (another finding of the part counts the same time)</source>
        <translation>涉及时间：无单独计入（同一部分的另一条发现已计入相同的时间）</translation>
    </message>
    <message>
        <source>time at stake: none inside the part it explains (its time lies outside it)</source>
        <translation>涉及时间：在其解释的部分之内为零（其时间都在该部分之外）</translation>
    </message>
    <message>
        <source>(These numbers are over the %1 ranks loaded; this finding counts rank %2&apos;s time.)</source>
        <translation>（以上数字是已加载的 %1 个 rank 的合计；本条发现只计 rank %2 的时间。）</translation>
    </message>
    <message>
        <source>Open the Kernels panel sorted by total time: the longest kernels are where computing goes; compare their time with the expected FLOPs and bytes.</source>
        <translation>打开 Kernels 面板并按总时间排序：耗时最长的 kernel 就是计算时间的去处；将其时间与预期的 FLOPs 和字节数比较。</translation>
    </message>
    <message>
        <source>Open the rank&apos;s communication lanes and the cluster page: exposed communication is transfer time or waiting for a slower rank.</source>
        <translation>打开该 rank 的通信泳道和集群页面：未被掩盖的通信要么是传输时间，要么是在等待更慢的 rank。</translation>
    </message>
    <message>
        <source>Look at the idle gaps of the device lanes and at what the host does during them; collect the host side (CPU activity) if it is missing.</source>
        <translation>查看设备泳道上的空闲间隙以及主机在这些间隙中做什么；如果缺少主机侧数据，请采集主机侧（CPU 活动）。</translation>
    </message>
    <message>
        <source>Communication not overlapped with computation</source>
        <translation>通信未被计算掩盖</translation>
    </message>
    <message>
        <source>Rank %1&apos;s communication ran for %2 ms while no computation ran. The most: %3 (%4 op(s), %5 ms).</source>
        <translation>rank %1 的通信在没有计算运行时持续了 %2 ms。最多的是：%3（%4 个算子，%5 ms）。</translation>
    </message>
    <message>
        <source>The data has no Notify Wait tasks, so waiting for the peer ranks cannot be told apart from the transfers.</source>
        <translation>数据中没有 Notify Wait 任务，因此无法区分等待其他 rank 与传输本身。</translation>
    </message>
    <message>
        <source>%1 ms of it were Notify Wait tasks: the rank waited for its peers in the collective, so a slower rank or an unequal split shows here as well as the transfers themselves.</source>
        <translation>其中 %1 ms 是 Notify Wait 任务：该 rank 在集合通信中等待其他 rank，因此更慢的 rank 或不均衡的切分也会和传输本身一起体现在这里。</translation>
    </message>
    <message>
        <source>Overlap communication with computation (DDP / FSDP gradient buckets that start while the backward pass runs, communication on its own stream), send less (larger buckets, lower-precision gradients), and open the cluster page to see which rank the others wait for.</source>
        <translation>让通信与计算重叠（在反向传播运行时即开始的 DDP / FSDP 梯度桶、在独立流上通信），减少发送量（更大的桶、更低精度的梯度），并打开集群页面查看其他 rank 在等待哪个 rank。</translation>
    </message>
    <message>
        <source>Rank %1: device idle, but its host side was not collected</source>
        <translation>rank %1：设备空闲，但未采集其主机侧数据</translation>
    </message>
    <message>
        <source>The device of rank %1 was idle (Free) for %2 ms of %3 ms of its stage, but the loaded data holds no host-side lanes for this rank (no framework or CANN API calls), so whether the host dispatched too slowly, synchronised or waited for data cannot be shown. No time is claimed for a cause.</source>
        <translation>rank %1 的设备在其 %3 ms 的 stage 中空闲（Free）了 %2 ms，但已加载的数据中没有该 rank 的主机侧泳道（没有框架或 CANN API 调用），因此无法判断是主机下发太慢、同步还是在等待数据。不为任何原因计入时间。</translation>
    </message>
    <message>
        <source>Collect the host side of this rank: torch_npu.profiler with activities=[ProfilerActivity.CPU, ProfilerActivity.NPU] and the text export (trace_view.json), or msprof with --ascendcl=on and --runtime-api=on; then open the rank folder with that timeline.</source>
        <translation>采集该 rank 的主机侧数据：使用 torch_npu.profiler 并设置 activities=[ProfilerActivity.CPU, ProfilerActivity.NPU] 和文本导出（trace_view.json），或使用 msprof 并加上 --ascendcl=on 和 --runtime-api=on；然后打开带有该时间线的 rank 文件夹。</translation>
    </message>
    <message>
        <source>While the whole device was idle (in the steps&apos; Free time when there are steps), it was waiting for the host for %1 ms (the next task was launched after the previous one ended), for another stream or an event for %2 ms (EVENT_WAIT, Notify Wait) and for nothing recorded for %3 ms; each instant is counted once.</source>
        <translation>在整个设备空闲期间（有迭代时限于各迭代的 Free 时间），等待主机 %1 ms（下一个任务在上一个任务结束后才下发），等待其他流或事件 %2 ms（EVENT_WAIT、Notify Wait），无记录的等待 %3 ms；每个时刻只计一次。</translation>
    </message>
    <message>
        <source>time at stake: %1 (%2 % of the step time)</source>
        <translation>涉及时间：%1（占步骤时间的 %2 %）</translation>
    </message>
    <message>
        <source>time at stake: %1 of %2 (%3 % of the part, %4 % of the step time)</source>
        <translation>涉及时间：%2中的 %1（占该部分的 %3 %，占步骤时间的 %4 %）</translation>
    </message>
    <message>
        <source>time at stake: %1 of rank %2&apos;s %3 (%4 % of the part, %5 % of its step)</source>
        <translation>涉及时间：rank %2 的%3中的 %1（占该部分的 %4 %，占其步骤时间的 %5 %）</translation>
    </message>
    <message>
        <source> for %1</source>
        <translation> 持续 %1</translation>
    </message>
    <message>
        <source>%1 (rank %2)</source>
        <translation>%1（rank %2）</translation>
    </message>
    <message>
        <source>Also checked, no time of their own left to explain (another finding counts it, or it lies outside the part): %1.</source>
        <translation>另已检查、但没有可单独解释的时间（其时间已由另一条发现计入，或不在所解释的部分之内）：%1。</translation>
    </message>
    <message>
        <source>Rank %1: %2 of %3 that no check explains</source>
        <translation>rank %1：%3中有 %2 没有任何检查能解释</translation>
    </message>
    <message>
        <source>The largest part of rank %1&apos;s step is %2: %3 of %4. The checks explain %5 of it; no check explains the other %6.</source>
        <translation>rank %1 的迭代中最大的部分是%2：%4 中的 %3。各项检查解释了其中 %5；其余 %6 没有任何检查能解释。</translation>
    </message>
    <message>
        <source>%1%2 (%3): rank %4 %5 ms against a mean of %6 ms over %7 ranks, %8 = %9 &gt; %10; the other ranks waited %11 ms in all, rank %12 longest</source>
        <translation>%1%2（%3）：rank %4 为 %5 ms，%7 个 rank 的平均值为 %6 ms，%8 = %9 &gt; %10；其他 rank 共等待 %11 ms，rank %12 等待最久</translation>
    </message>
    <message>
        <source>Rank %1 voted slow in %2 of %3 collectives of group %4 (%5)</source>
        <translation>rank %1 在通信组 %4 的 %3 个集合通信中有 %2 次被投票为慢卡（%5）</translation>
    </message>
    <message>
        <source>rank %1: %2 of %3 in %4</source>
        <translation>rank %1：%4 中 %3 次里 %2 次</translation>
    </message>
    <message>
        <source>msprof-analyze&apos;s slow-rank vote: in each collective of a group (send/receive and groups whose ranks have unequal op counts left out) the rank whose op time (Elapse Time) is abnormally short arrived last, the others waited for it inside the op; Dixon&apos;s Q-test at 99.5 % up to %1 ranks, 3σ above. Rank %2 got %3 vote(s) in the %4 collectives of group %5 tested; in those ops the other ranks waited %6 ms (Σ Wait Time), rank %7 longest.</source>
        <translation>msprof-analyze 的慢卡投票：在通信组的每个集合通信中（不含 send/receive 以及各 rank 算子数不一致的通信组），算子耗时（Elapse Time）异常短的 rank 最后到达，其他 rank 在算子内等待它；不超过 %1 个 rank 时用 Dixon Q 检验（99.5 %），更多时用 3σ。rank %2 在通信组 %5 被检验的 %4 个集合通信中得到 %3 票；在这些算子中其他 rank 共等待 %6 ms（Wait Time 之和），等待最久的是 rank %7。</translation>
    </message>
    <message>
        <source>Also voted: %1.</source>
        <translation>其他被投票的：%1。</translation>
    </message>
    <message>
        <source>Open the voted rank and a waiting rank at the op (double-click the occurrence on the cluster page) and compare what each ran before the collective: the voted rank computed longer, its host dispatched later, or it was held by another collective.</source>
        <translation>在该算子处打开被投票的 rank 和一个等待的 rank（在集群页双击该条目），比较二者在该集合通信之前执行的内容：被投票的 rank 计算更久、其 host 下发更晚，或被另一个集合通信占住。</translation>
    </message>
    <message>
        <source>%1%2 (%3, ranks %4): transit %5 ms against a mean of %6 ms over %7 ops, z = %8</source>
        <translation>%1%2（%3，rank %4）：传输时间 %5 ms，%7 个算子的平均值为 %6 ms，z = %8</translation>
    </message>
    <message>
        <source>Slow link by transit time: %1 in group %2</source>
        <translation>按传输时间判定的慢链路：通信组 %2 中的 %1</translation>
    </message>
    <message numerus="yes">
        <source>msprof-analyze&apos;s slow-link rule: an op&apos;s transit time is the shortest op time (Elapse Time) over its group&apos;s ranks, the time of the rank that waited for no one; ops of the same kind, data size and number of ranks should transfer alike, and a transit time more than %1σ above their mean marks a slow link. %n op(s) found. The largest: %2 on ranks %3 took %4 ms against a mean of %5 ms over %6 %7 ops of %8 MB on %9 ranks (z = %10).</source>
        <translation>
            <numerusform>msprof-analyze 的慢链路规则：算子的传输时间是其通信组各 rank 上算子耗时（Elapse Time）的最小值，即无需等待任何 rank 的那个 rank 的耗时；同类型、同数据量、同 rank 数的算子传输应当相近，传输时间高于其平均值 %1σ 以上即为慢链路。共发现 %n 个算子。最大的：%2 在 rank %3 上耗时 %4 ms，而 %6 个 %8 MB、%9 个 rank 的 %7 算子平均为 %5 ms（z = %10）。</numerusform>
        </translation>
    </message>
    <message>
        <source>Open the op&apos;s ranks at the op and check the links between them (HCCS / RDMA port errors, a link running at reduced width, traffic from other jobs) and the communication matrix of that step.</source>
        <translation>在该算子处打开其各 rank，检查它们之间的链路（HCCS / RDMA 端口错误、降宽运行的链路、其他作业的流量）以及该 step 的通信矩阵。</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>%1%2 (%3): rank %4 arrived %5 ms after rank %6 — %7</source>
        <translation>%1%2（%3）：rank %4 比 rank %6 晚到 %5 ms — %7</translation>
    </message>
    <message>
        <source>%1rank %2: %3 tokens, %4 × the mean of %5 (least: rank %6, %7 tokens)</source>
        <translation>%1rank %2：%3 个 token，是 %5 平均值的 %4 倍（最少：rank %6，%7 个 token）</translation>
    </message>
    <message>
        <source>MoE load imbalance: rank %1 gets %2 × the mean tokens of %3</source>
        <translation>MoE 负载不均衡：rank %1 获得的 token 数是 %3 平均值的 %2 倍</translation>
    </message>
    <message numerus="yes">
        <source>The tokens routed to each rank&apos;s experts (the first input dimension of its GroupedMatmul kernels, summed per step) are uneven in %n step(s) of an expert-parallel group: above %1 × the group&apos;s mean. The worst: %2rank %3 got %4 tokens against a mean of %5 (rank %6 the least, %7; coefficient of variation %8); its grouped matmuls took %9 ms more than the group&apos;s mean, which the others wait for in the next all-to-all.</source>
        <translation>
            <numerusform>路由到各 rank 专家的 token 数（其 GroupedMatmul 算子第一个输入的第一维，按步求和）在专家并行组的 %n 个步中不均衡：超过组平均值的 %1 倍。最严重的：%2rank %3 获得 %4 个 token，平均值为 %5（最少的是 rank %6，%7 个；变异系数 %8）；其分组矩阵乘比组平均多用 %9 ms，其他 rank 在下一次 all-to-all 中等待它。</numerusform>
        </translation>
    </message>
    <message>
        <source>Balance the router: raise the auxiliary load-balancing loss coefficient or use aux-loss-free bias balancing, set an expert capacity factor (token dropping), or re-place hot experts (redundant experts on the loaded rank&apos;s peers); open the most and the least loaded rank at the op to compare.</source>
        <translation>平衡路由：调高辅助负载均衡损失系数或使用无辅助损失的偏置均衡，设置专家容量因子（丢弃 token），或重新放置热点专家（在负载高的 rank 的同组 rank 上放置冗余专家）；在该算子处打开负载最高和最低的 rank 进行比较。</translation>
    </message>
    <message>
        <source>Late arrivals at collectives: %1 host-bound, %2 device-bound of %3 ops</source>
        <translation>集合通信晚到：%3 个算子中 %1 个 Host 瓶颈，%2 个 Device 瓶颈</translation>
    </message>
    <message>
        <source>For the %1 longest communication ops whose fastest and slowest rank differ by more than %2 % (of %3 such ops), the two ranks&apos; timelines were compared at the op&apos;s end (a collective ends together on every rank): the slow rank is host-bound when its host launched the op after the fast rank had arrived while its stream was free, device-bound when its stream ran the tasks before the op past that arrival; a cause must explain at least half the gap. The largest: %4</source>
        <translation>对最快与最慢 rank 相差超过 %2 % 的通信算子中最长的 %1 个（共 %3 个），以算子结束时刻为基准比较两个 rank 的时间线（集合通信在各 rank 上同时结束）：若慢 rank 的 Host 在快 rank 到达之后才下发该算子且其流空闲，则为 Host 瓶颈；若其流上该算子之前的任务运行到快 rank 到达之后，则为 Device 瓶颈；原因须至少解释一半的差距。最大的一个：%4</translation>
    </message>
    <message>
        <source>Host-bound: shorten what the slow rank&apos;s host does before the collective (CPU binding, data loading, Python overhead, the task queue); device-bound: balance the work before the collective (uneven shapes, a slower device); undetermined: collect what the reason names.</source>
        <translation>Host 瓶颈：缩短慢 rank 的 Host 在集合通信之前的工作（CPU 绑核、数据加载、Python 开销、任务队列）；Device 瓶颈：均衡集合通信之前的计算（不均匀的 shape、较慢的设备）；无法判定：按原因所述补充采集数据。</translation>
    </message>
</context>
<context>
    <name>OpenDialogs</name>
    <message>
        <source>Open profiling result folder</source>
        <translation>打开性能数据结果目录</translation>
    </message>
    <message>
        <source>Open session</source>
        <translation>打开会话</translation>
    </message>
    <message>
        <source>Sessions (*.atsession);;All files (*)</source>
        <translation>会话 (*.atsession);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Save session</source>
        <translation>保存会话</translation>
    </message>
    <message>
        <source>Sessions (*.atsession)</source>
        <translation>会话 (*.atsession)</translation>
    </message>
    <message>
        <source>Export view</source>
        <translation>导出视图</translation>
    </message>
    <message>
        <source>Traces and profiling folders (*.json *.json.zst *.json.gz *.zst *.gz *.db);;All files (*)</source>
        <translation>跟踪文件和性能数据文件夹 (*.json *.json.zst *.json.gz *.zst *.gz *.db);;所有文件 (*)</translation>
    </message>
    <message>
        <source>File or folder:</source>
        <translation>文件或文件夹：</translation>
    </message>
</context>
<context>
    <name>Overview</name>
    <message>
        <source>Computing</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>Communication (not overlapped)</source>
        <translation>通信（未被掩盖）</translation>
    </message>
    <message>
        <source>Free</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>Preparing</source>
        <translation>准备</translation>
    </message>
    <message>
        <source>Bubble</source>
        <translation>气泡</translation>
    </message>
    <message>
        <source>Other / not attributed</source>
        <translation>其他 / 未归因</translation>
    </message>
    <message>
        <source>Rank %1</source>
        <translation>Rank %1</translation>
    </message>
    <message numerus="yes">
        <source>Mean of %n step(s)</source>
        <translation>
            <numerusform>%n 个迭代的平均</numerusform>
        </translation>
    </message>
    <message>
        <source>No rank: the input has no timeline and no cluster summary files.</source>
        <translation>没有 Rank：输入既无时间线也无集群汇总文件。</translation>
    </message>
    <message>
        <source>No steps in any rank: the parts of a step cannot be shown. Profile with a schedule (torch_npu: schedule=…, prof.step() every step).</source>
        <translation>所有 Rank 都没有迭代：无法显示迭代的组成部分。请使用 schedule 采集（torch_npu：schedule=…，每个迭代调用 prof.step()）。</translation>
    </message>
    <message>
        <source>Waiting for rank %1</source>
        <translation>等待 Rank %1</translation>
    </message>
    <message>
        <source>Transfer and other</source>
        <translation>传输及其他</translation>
    </message>
    <message>
        <source>Rank %1 / Device %2</source>
        <translation>Rank %1 / Device %2</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>迭代</translation>
    </message>
    <message>
        <source>Step %1</source>
        <translation>迭代 %1</translation>
    </message>
    <message>
        <source>No step breakdown (step_trace_time.csv or a profiler database) in the rank folder.</source>
        <translation>Rank 文件夹中没有迭代拆解（step_trace_time.csv 或 profiler 数据库）。</translation>
    </message>
    <message>
        <source>No timeline loaded for this rank: computing and free time are not split (the summary files do not show them).</source>
        <translation>此 Rank 未加载时间线：计算和空闲时间未拆分（汇总文件中没有这些信息）。</translation>
    </message>
    <message>
        <source>No memory summary: no memory peak.</source>
        <translation>无内存汇总：没有内存峰值。</translation>
    </message>
    <message>
        <source>No steps: no ProfilerStep#, Iteration or declared step was found, so the step cannot be split into parts.</source>
        <translation>没有迭代：未找到 ProfilerStep#、Iteration 或声明的迭代，因此无法拆分迭代。</translation>
    </message>
    <message>
        <source>No kernel table (kernel_details.csv / op_summary): computing is not split by kernel type.</source>
        <translation>无算子表（kernel_details.csv / op_summary）：计算时间未按算子类型拆分。</translation>
    </message>
    <message>
        <source>No host data: free time is not split by cause.</source>
        <translation>无 Host 数据：空闲时间未按原因拆分。</translation>
    </message>
    <message>
        <source>No memory data: no memory peak.</source>
        <translation>无内存数据：没有内存峰值。</translation>
    </message>
    <message>
        <source>%1: step %2 has no time in column %3 (&apos;%4&apos;); its parts are recomputed from the timeline.</source>
        <translation>%1：迭代 %2 的 %3 列不是时间（&apos;%4&apos;）；其组成部分改为从时间线重新计算。</translation>
    </message>
    <message>
        <source>Unknown core</source>
        <translation>未知核类型</translation>
    </message>
    <message>
        <source>Data loading</source>
        <translation>数据加载</translation>
    </message>
    <message>
        <source>Synchronisation</source>
        <translation>同步</translation>
    </message>
    <message>
        <source>Host dispatch</source>
        <translation>Host 下发</translation>
    </message>
    <message>
        <source>Nothing recorded</source>
        <translation>无记录</translation>
    </message>
    <message>
        <source>memory files of the rank</source>
        <translation>该 Rank 的内存文件</translation>
    </message>
</context>
<context>
    <name>PanelRegistry</name>
    <message>
        <source>P&amp;anels</source>
        <translation>面板(&amp;A)</translation>
    </message>
</context>
<context>
    <name>Parser</name>
    <message>
        <source>%1: distributed_args.rank is %2 but the folder is rank %3</source>
        <translation>%1：distributed_args.rank 为 %2，但该文件夹是 rank %3</translation>
    </message>
    <message>
        <source>%1; step breakdown not read</source>
        <translation>%1；未读取迭代耗时拆解</translation>
    </message>
    <message>
        <source>%1: no Computing column or no rows; step breakdown not read</source>
        <translation>%1：没有 Computing 列或没有数据行；未读取迭代耗时拆解</translation>
    </message>
    <message>
        <source>%1: no Component, Timestamp(us) or Total Reserved column; peak memory not read</source>
        <translation>%1：没有 Component、Timestamp(us) 或 Total Reserved 列；未读取内存峰值</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n row(s) without a readable time or Total Reserved left out of the peak memory</source>
        <translation>
            <numerusform>%1：%n 行没有可读的时间或 Total Reserved，未计入内存峰值</numerusform>
        </translation>
    </message>
    <message>
        <source>communication group %1 is not in any parallel_group_info; its matrix links keep the ranks as written</source>
        <translation>通信域 %1 不在任何 parallel_group_info 中；其通信矩阵链路保留文件中所写的 rank</translation>
    </message>
    <message>
        <source>%1: no Type/Index/Computing columns; not read</source>
        <translation>%1：没有 Type/Index/Computing 列；未读取</translation>
    </message>
    <message>
        <source>%1: no profiler_info_&lt;N&gt;.json or other rank id; folder skipped</source>
        <translation>%1：没有 profiler_info_&lt;N&gt;.json 或其他 rank 标识；已跳过该文件夹</translation>
    </message>
    <message>
        <source>%1: rank %2 is already read from %3; folder skipped</source>
        <translation>%1：rank %2 已从 %3 读取；已跳过该文件夹</translation>
    </message>
    <message>
        <source>none of the %1 rank folders is prepared in %2; their files were read</source>
        <translation>%2 中没有预处理过这 %1 个 rank 文件夹中的任何一个；已改为读取它们的文件</translation>
    </message>
    <message>
        <source>%1: not valid JSON</source>
        <translation>%1：不是有效的 JSON</translation>
    </message>
    <message>
        <source>%1: not a JSON object</source>
        <translation>%1：不是 JSON 对象</translation>
    </message>
    <message>
        <source>%1: not valid JSON near key &quot;%2&quot;</source>
        <translation>%1：键“%2”附近不是有效的 JSON</translation>
    </message>
    <message>
        <source>%1 lies inside the rank folder %2 (the data folder is never written)</source>
        <translation>%1 位于 rank 文件夹 %2 内（从不写入数据文件夹）</translation>
    </message>
    <message>
        <source>prepared summary %1 of %2 not used (%3); the rank&apos;s files were read</source>
        <translation>未使用 %2 的预处理摘要 %1（%3）；已改为读取该 rank 的文件</translation>
    </message>
    <message>
        <source>not a regular file</source>
        <translation>不是普通文件</translation>
    </message>
    <message>
        <source>made for another folder</source>
        <translation>属于另一个文件夹</translation>
    </message>
    <message>
        <source>no files recorded</source>
        <translation>未记录任何文件</translation>
    </message>
    <message>
        <source>%1 changed since it was prepared</source>
        <translation>%1 在预处理之后已更改</translation>
    </message>
    <message>
        <source>the decompressed data is larger than %1 (%2); decompression stopped there and the complete events before it are read</source>
        <translation>解压后的数据超过 %1（%2）；解压在此停止，之前的完整事件已读取</translation>
    </message>
    <message>
        <source>cannot write the decompressed data to %1: %2</source>
        <translation>无法将解压数据写入 %1：%2</translation>
    </message>
    <message>
        <source>the decompressed data is not JSON: byte %1 is %2, expected &apos;[&apos; or &apos;{&apos; (decompression stopped)</source>
        <translation>解压后的数据不是 JSON：字节 %1 是 %2，应为 &apos;[&apos; 或 &apos;{&apos;（解压已停止）</translation>
    </message>
    <message>
        <source>read error: %1</source>
        <translation>读取错误：%1</translation>
    </message>
    <message>
        <source>corrupt zstd data near compressed byte %1: %2</source>
        <translation>压缩字节 %1 附近的 zstd 数据损坏：%2</translation>
    </message>
    <message>
        <source>the zstd stream is truncated; the decompressed part is used</source>
        <translation>zstd 数据流不完整；使用已解压的部分</translation>
    </message>
    <message>
        <source>cannot initialise zlib</source>
        <translation>无法初始化 zlib</translation>
    </message>
    <message>
        <source>corrupt gzip data near compressed byte %1: %2</source>
        <translation>压缩字节 %1 附近的 gzip 数据损坏：%2</translation>
    </message>
    <message>
        <source>the gzip stream is truncated; the decompressed part is used</source>
        <translation>gzip 数据流不完整；使用已解压的部分</translation>
    </message>
    <message>
        <source>%1: cannot open: %2</source>
        <translation>%1：无法打开：%2</translation>
    </message>
    <message>
        <source>%1: cannot create a temporary file for decompression: %2</source>
        <translation>%1：无法创建用于解压的临时文件：%2</translation>
    </message>
    <message>
        <source>the free space of %1 less %2</source>
        <translation>%1 的剩余空间减去 %2</translation>
    </message>
    <message>
        <source>the memory limit; raise it with --memory-limit or AT_MEMORY_LIMIT</source>
        <translation>内存上限；可用 --memory-limit 或 AT_MEMORY_LIMIT 调高</translation>
    </message>
    <message>
        <source>%1: the path is too long (%2 bytes; the system allows %3)</source>
        <translation>%1：路径过长（%2 字节；系统允许 %3）</translation>
    </message>
    <message>
        <source>%1: the path is too long (a name in it is longer than %2 bytes)</source>
        <translation>%1：路径过长（其中某个名称超过 %2 字节）</translation>
    </message>
    <message>
        <source>%1: a symbolic link to %2, which does not exist</source>
        <translation>%1：指向 %2 的符号链接，但目标不存在</translation>
    </message>
    <message>
        <source>%1 is %2, not a trace file or folder</source>
        <translation>%1 是%2，不是 trace 文件或文件夹</translation>
    </message>
    <message>
        <source>%1: points to %2, a virtual system file, not a trace</source>
        <translation>%1：指向 %2，这是虚拟系统文件，不是 trace</translation>
    </message>
    <message>
        <source>%1 is %2, not a regular file</source>
        <translation>%1 是%2，不是普通文件</translation>
    </message>
    <message>
        <source>%1: cannot open: the path is too long</source>
        <translation>%1：无法打开：路径过长</translation>
    </message>
    <message>
        <source>%1: cannot map the file into memory: %2</source>
        <translation>%1：无法将文件映射到内存：%2</translation>
    </message>
    <message>
        <source>%1 changed while it was read: %2 of %3 bytes read</source>
        <translation>%1 在读取过程中被修改：已读取 %2 / %3 字节</translation>
    </message>
    <message>
        <source>a folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <source>a FIFO (named pipe)</source>
        <translation>FIFO（命名管道）</translation>
    </message>
    <message>
        <source>a socket</source>
        <translation>套接字</translation>
    </message>
    <message>
        <source>a character device</source>
        <translation>字符设备</translation>
    </message>
    <message>
        <source>a block device</source>
        <translation>块设备</translation>
    </message>
    <message>
        <source>a special file</source>
        <translation>特殊文件</translation>
    </message>
    <message>
        <source>en</source>
        <comment>the language code of this translation</comment>
        <translation>zh_CN</translation>
    </message>
    <message>
        <source>no output path given</source>
        <translation>未指定输出路径</translation>
    </message>
    <message>
        <source>the path is too long</source>
        <translation>路径过长</translation>
    </message>
    <message>
        <source>it is %1, not a regular file: refusing to replace it</source>
        <translation>它是%1，不是普通文件：拒绝替换</translation>
    </message>
    <message>
        <source>it is one of the files being read (%1): refusing to overwrite it</source>
        <translation>它是正在读取的文件之一（%1）：拒绝覆盖</translation>
    </message>
    <message>
        <source>unknown chip (platform_version %1)</source>
        <translation>未知芯片（platform_version %1）</translation>
    </message>
    <message>
        <source>L2 cache collection was on: it adds overhead and inflates kernel times</source>
        <translation>采集时开启了 L2 Cache：会带来额外开销，使算子耗时偏大</translation>
    </message>
    <message>
        <source>AI Core metrics were collected in sample-based mode: metrics are not per task, so they cannot be attributed to individual operators</source>
        <translation>AI Core 指标以 sample-based 模式采集：指标不是按任务统计的，无法归属到单个算子</translation>
    </message>
    <message>
        <source>ASCEND_LAUNCH_BLOCKING was set: operators ran synchronously, so the timeline does not show the normal host/device overlap</source>
        <translation>设置了 ASCEND_LAUNCH_BLOCKING：算子同步执行，时间线不反映正常的 Host/Device 重叠</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>Step %1 is among the first ten: it may include operator compilation; the profiler docs advise profiling after step 10</source>
        <translation>Step %1 属于前十个 step：可能包含算子编译；profiler 文档建议在第 10 个 step 之后采集</translation>
    </message>
    <message>
        <source>the summary CSV</source>
        <translation>汇总 CSV</translation>
    </message>
    <message>
        <source>The configuration records no AI Core metric group, but %1 has metric columns of %2</source>
        <translation>配置中没有记录 AI Core 指标组，但 %1 含有 %2 的指标列</translation>
    </message>
    <message>
        <source>The AI Core metric group in the configuration (%1) differs from the metric columns of %2 (%3)</source>
        <translation>配置中的 AI Core 指标组（%1）与 %2 的指标列（%3）不一致</translation>
    </message>
    <message>
        <source>an array</source>
        <translation>数组</translation>
    </message>
    <message>
        <source>a bare value</source>
        <translation>单个值</translation>
    </message>
    <message>
        <source>expected a JSON object, found %1</source>
        <translation>应为 JSON 对象，实际为%1</translation>
    </message>
    <message>
        <source>the file does not exist</source>
        <translation>文件不存在</translation>
    </message>
    <message>
        <source>it is a folder, not a file</source>
        <translation>这是文件夹，不是文件</translation>
    </message>
    <message>
        <source>the file is too large for a configuration file (%1 bytes)</source>
        <translation>文件太大，不像配置文件（%1 字节）</translation>
    </message>
    <message>
        <source>the file is too large for a configuration file</source>
        <translation>文件太大，不像配置文件</translation>
    </message>
    <message>
        <source>the file is empty</source>
        <translation>文件为空</translation>
    </message>
    <message>
        <source>not a text file (it contains NUL bytes)</source>
        <translation>不是文本文件（含有 NUL 字节）</translation>
    </message>
    <message>
        <source>no &quot;key: value&quot; lines found</source>
        <translation>没有找到 &quot;key: value&quot; 行</translation>
    </message>
    <message>
        <source>no header row found</source>
        <translation>没有找到表头行</translation>
    </message>
    <message>
        <source>%1 more %2 not listed (%3 in total)</source>
        <translation>另有 %1 条%2未列出（共 %3 条）</translation>
    </message>
    <message>
        <source>reading stopped after %1 rows (byte %2 of %3): the rows before are kept</source>
        <translation>读取在第 %1 行后停止（字节 %2 / %3）：之前的行已保留</translation>
    </message>
    <message>
        <source>file is empty</source>
        <translation>文件为空</translation>
    </message>
    <message>
        <source>rows with a different number of cells than the header</source>
        <translation>单元格数与表头不同的行</translation>
    </message>
    <message>
        <source>cells with text after the closing quote</source>
        <translation>闭合引号后还有文本的单元格</translation>
    </message>
    <message>
        <source>input ends inside a quoted field opened at line %1; the incomplete row starting at line %2 (byte %3) was dropped</source>
        <translation>输入在第 %1 行开始的引号字段内结束；从第 %2 行（字节 %3）开始的不完整行已丢弃</translation>
    </message>
    <message>
        <source>text after a closing quote was appended to the cell</source>
        <translation>闭合引号后的文本已追加到该单元格</translation>
    </message>
    <message>
        <source>row is larger than 4 GiB and was dropped</source>
        <translation>该行超过 4 GiB，已丢弃</translation>
    </message>
    <message>
        <source>row has %1 cells, the header has %2 (row kept)</source>
        <translation>该行有 %1 个单元格，表头有 %2 个（已保留该行）</translation>
    </message>
    <message>
        <source>the first row has %1 columns, more than the %2 a profiler table can have; the file was not read</source>
        <translation>第一行有 %1 列，超过 profiler 表格可能的 %2 列；未读取该文件</translation>
    </message>
    <message>
        <source>duplicate column name &quot;%1&quot;; lookups use the first</source>
        <translation>列名 &quot;%1&quot; 重复；查找时使用第一个</translation>
    </message>
    <message>
        <source>header has a single column containing &apos;%1&apos;: wrong delimiter?</source>
        <translation>表头只有一列且包含 &apos;%1&apos;：分隔符是否有误？</translation>
    </message>
    <message>
        <source>first row looks like data (%1 of %2 cells are numbers): no header row?</source>
        <translation>第一行看起来是数据（%2 个单元格中有 %1 个是数字）：缺少表头行？</translation>
    </message>
    <message>
        <source>error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>header differs from the first file; %1 rows remapped by column name</source>
        <translation>表头与第一个文件不同；已按列名重新映射 %1 行</translation>
    </message>
    <message>
        <source>%1: cannot write: %2</source>
        <translation>%1：无法写入：%2</translation>
    </message>
    <message>
        <source>Cannot read %1: permission denied.</source>
        <translation>无法读取 %1：权限不足。</translation>
    </message>
    <message>
        <source>%1 holds raw data only: run `msprof --export=on --output=%1` to export a timeline.</source>
        <translation>%1 只有原始数据：请运行 `msprof --export=on --output=%1` 导出时间线。</translation>
    </message>
    <message>
        <source>%1 has no timeline and no raw data.</source>
        <translation>%1 既没有时间线也没有原始数据。</translation>
    </message>
    <message>
        <source>%1 has no msprof_*.json timeline; device %2 is skipped.</source>
        <translation>%1 没有 msprof_*.json 时间线；跳过设备 %2。</translation>
    </message>
    <message>
        <source>%1 is the msprof data embedded in the torch_npu result %2. Open %2 instead to see the Python lanes of trace_view.json.</source>
        <translation>%1 是内嵌在 torch_npu 结果 %2 中的 msprof 数据。请改为打开 %2，以查看 trace_view.json 中的 Python 泳道。</translation>
    </message>
    <message>
        <source>%1 links back to %2; not followed.</source>
        <translation>%1 链接回 %2；未跟随。</translation>
    </message>
    <message>
        <source>The search stopped after %1 folders below %2. Choose a folder closer to the data.</source>
        <translation>在 %2 下搜索了 %1 个文件夹后停止。请选择更接近数据的文件夹。</translation>
    </message>
    <message>
        <source>Folders more than %1 levels below %2 were not searched (for example inside %3). Choose a folder closer to the data.</source>
        <translation>未搜索 %2 下超过 %1 层的文件夹（例如 %3 之内）。请选择更接近数据的文件夹。</translation>
    </message>
    <message>
        <source>%1 is part of the profiling result %2; the whole result is loaded.</source>
        <translation>%1 是性能数据结果 %2 的一部分；已加载整个结果。</translation>
    </message>
    <message>
        <source>%1 is not a recognised result folder; loading the timeline files found in it.</source>
        <translation>%1 不是可识别的结果文件夹；加载其中找到的时间线文件。</translation>
    </message>
    <message>
        <source>Results were found in %1 different folders (%2). They are shown as separate runs and are not aligned to one clock.</source>
        <translation>在 %1 个不同的文件夹中找到了结果（%2）。它们作为不同的运行分别显示，不对齐到同一时钟。</translation>
    </message>
    <message>
        <source>%1 does not exist.</source>
        <translation>%1 不存在。</translation>
    </message>
    <message>
        <source>No Ascend profiling result was found in %1 (searched up to %2 levels deep). Expected a *_ascend_pt folder, a PROF_* folder, trace_view.json or msprof*.json.</source>
        <translation>在 %1 中没有找到 Ascend 性能数据结果（最多搜索 %2 层）。应为 *_ascend_pt 文件夹、PROF_* 文件夹、trace_view.json 或 msprof*.json。</translation>
    </message>
    <message>
        <source>%1 is not a timeline: %2</source>
        <translation>%1 不是时间线：%2</translation>
    </message>
    <message>
        <source>it is not a regular file.</source>
        <translation>它不是普通文件。</translation>
    </message>
    <message>
        <source>only msprof_&lt;n&gt;.db and ascend_pytorch_profiler[_&lt;rank&gt;].db databases hold a timeline (analysis.db and cluster_analysis.db are summaries).</source>
        <translation>只有 msprof_&lt;n&gt;.db 和 ascend_pytorch_profiler[_&lt;rank&gt;].db 数据库含有时间线（analysis.db 和 cluster_analysis.db 是汇总数据）。</translation>
    </message>
    <message>
        <source>CSV files are summary tables; open the result folder that contains it.</source>
        <translation>CSV 文件是汇总表；请打开包含它的结果文件夹。</translation>
    </message>
    <message>
        <source>Cannot read %1.</source>
        <translation>无法读取 %1。</translation>
    </message>
    <message>
        <source>it is neither a JSON array nor an object with &quot;traceEvents&quot;.</source>
        <translation>它既不是 JSON 数组，也不是带 &quot;traceEvents&quot; 的对象。</translation>
    </message>
    <message>
        <source>%1 has no trace_view.json or profiler database; using the msprof export of the embedded %2 instead (no Python lanes).</source>
        <translation>%1 没有 trace_view.json 或 profiler 数据库；改用内嵌的 %2 的 msprof 导出（没有 Python 泳道）。</translation>
    </message>
    <message>
        <source>%1 is an unparsed torch_npu profile (raw data only): run `torch_npu.profiler.profiler.analyse(&quot;%2&quot;)` to create ASCEND_PROFILER_OUTPUT/trace_view.json.</source>
        <translation>%1 是未解析的 torch_npu 性能数据（只有原始数据）：请运行 `torch_npu.profiler.profiler.analyse(&quot;%2&quot;)` 生成 ASCEND_PROFILER_OUTPUT/trace_view.json。</translation>
    </message>
    <message>
        <source>%1 has no timeline: %2 is not a regular file (a FIFO, socket or device) and is not read.</source>
        <translation>%1 没有时间线：%2 不是普通文件（FIFO、套接字或设备），不会读取。</translation>
    </message>
    <message>
        <source>unreadable event</source>
        <translation>无法读取的事件</translation>
    </message>
    <message>
        <source>%1: %2 elements of the event array are not event objects and were skipped (first at byte %3: %4); the events after them were read</source>
        <translation>%1：事件数组中有 %2 个元素不是事件对象，已跳过（第一个在字节 %3：%4）；其后的事件已读取</translation>
    </message>
    <message>
        <source>%1: %2 events have text that is not valid UTF-8 (first at byte %3); they were kept, their text read %4</source>
        <translation>%1：%2 个事件含有无效的 UTF-8 文本（第一个在字节 %3）；已保留，其文本%4读取</translation>
    </message>
    <message>
        <source>as GB18030 (GBK), as the whole file decodes that way</source>
        <translation>按 GB18030（GBK）（整个文件可按此编码解码）</translation>
    </message>
    <message>
        <source>with U+FFFD replacing each invalid byte sequence</source>
        <translation>以 U+FFFD 替换每个无效字节序列后</translation>
    </message>
    <message>
        <source>%1: %2 events have a dur so large (more than 73 years, or ending beyond 2^62 ns) that their end was clamped to the last time the timeline can hold (first at byte %3)</source>
        <translation>%1：%2 个事件的 dur 过大（超过 73 年，或结束时间超过 2^62 ns），其结束时间已截断到时间线能表示的最晚时间（第一个在字节 %3）</translation>
    </message>
    <message>
        <source>%1: a second &quot;traceEvents&quot; key at byte %2 was ignored; only the first event array was read</source>
        <translation>%1：忽略了字节 %2 处的第二个 &quot;traceEvents&quot; 键；只读取了第一个事件数组</translation>
    </message>
    <message>
        <source>%1: %2 events were skipped because each is larger than %3, more than reading one event may take under the memory limit (first at byte %4: %5); raise it with --memory-limit or AT_MEMORY_LIMIT</source>
        <translation>%1：跳过了 %2 个事件，每个都大于 %3，超出内存上限下读取单个事件所允许的大小（第一个在字节 %4：%5）；可用 --memory-limit 或 AT_MEMORY_LIMIT 调高</translation>
    </message>
    <message>
        <source>%1: the event array is not closed with &apos;]&apos; (the file may have been cut off when the job ended); all %2 events in it were read</source>
        <translation>%1：事件数组没有以 &apos;]&apos; 结束（文件可能在作业结束时被截断）；其中全部 %2 个事件已读取</translation>
    </message>
    <message>
        <source>%1: truncated at byte %2 of %3: %4; the %5 complete events before it were kept</source>
        <translation>%1：在字节 %2 / %3 处截断：%4；之前的 %5 个完整事件已保留</translation>
    </message>
    <message>
        <source>%1: byte %2: %3; reading stopped there and the %4 events before it were kept</source>
        <translation>%1：字节 %2：%3；读取在此停止，之前的 %4 个事件已保留</translation>
    </message>
    <message>
        <source>%1: %2 events could not be read and were skipped (first at byte %3: %4)</source>
        <translation>%1：%2 个事件无法读取，已跳过（第一个在字节 %3：%4）</translation>
    </message>
    <message>
        <source>%1: %2 events have a missing or invalid ts/dur (events without a valid ts were skipped, invalid dur read as 0)</source>
        <translation>%1：%2 个事件的 ts/dur 缺失或无效（没有有效 ts 的事件已跳过，无效 dur 按 0 读取）</translation>
    </message>
    <message>
        <source>%1: %2 metadata/counter events have unreadable args</source>
        <translation>%1：%2 个元数据/计数器事件的 args 无法读取</translation>
    </message>
    <message>
        <source>%1: byte %2: %3; no complete event could be read</source>
        <translation>%1：字节 %2：%3；没有读到完整的事件</translation>
    </message>
    <message>
        <source>%1: none of the %2 elements of the event array is an event object (first at byte %3: %4)</source>
        <translation>%1：事件数组的 %2 个元素都不是事件对象（第一个在字节 %3：%4）</translation>
    </message>
    <message>
        <source>%1: none of the %2 events could be read (first at byte %3: %4)</source>
        <translation>%1：%2 个事件都无法读取（第一个在字节 %3：%4）</translation>
    </message>
    <message>
        <source>the file holds only whitespace</source>
        <translation>文件只含空白字符</translation>
    </message>
    <message>
        <source>not JSON: byte %1 is %2, expected &apos;[&apos; or &apos;{&apos;</source>
        <translation>不是 JSON：字节 %1 是 %2，应为 &apos;[&apos; 或 &apos;{&apos;</translation>
    </message>
    <message>
        <source>JSON, but not a trace: &quot;traceEvents&quot; at byte %1 is not an array</source>
        <translation>是 JSON，但不是 trace：字节 %1 处的 &quot;traceEvents&quot; 不是数组</translation>
    </message>
    <message>
        <source>the JSON object ends before a &quot;traceEvents&quot; array was found</source>
        <translation>JSON 对象在找到 &quot;traceEvents&quot; 数组之前就结束了</translation>
    </message>
    <message>
        <source>JSON, but not a trace: the top-level object has no &quot;traceEvents&quot; array</source>
        <translation>是 JSON，但不是 trace：顶层对象没有 &quot;traceEvents&quot; 数组</translation>
    </message>
    <message>
        <source>malformed JSON object at byte %1</source>
        <translation>字节 %1 处的 JSON 对象格式错误</translation>
    </message>
    <message>
        <source>the file ends inside a key at byte %1</source>
        <translation>文件在字节 %1 处的键名中结束</translation>
    </message>
    <message>
        <source>malformed JSON object at byte %1: expected &apos;:&apos;</source>
        <translation>字节 %1 处的 JSON 对象格式错误：应为 &apos;:&apos;</translation>
    </message>
    <message>
        <source>the file ends inside the value of &quot;%1&quot; (byte %2) before &quot;traceEvents&quot;</source>
        <translation>文件在 &quot;traceEvents&quot; 之前、&quot;%1&quot; 的值中（字节 %2）结束</translation>
    </message>
    <message>
        <source>a string</source>
        <translation>字符串</translation>
    </message>
    <message>
        <source>a boolean</source>
        <translation>布尔值</translation>
    </message>
    <message>
        <source>a number</source>
        <translation>数字</translation>
    </message>
    <message>
        <source>the event array is not closed with &apos;]&apos;</source>
        <translation>事件数组没有以 &apos;]&apos; 结束</translation>
    </message>
    <message>
        <source>unexpected %1 where an event object should start</source>
        <translation>应为事件对象开始处出现了意外的 %1</translation>
    </message>
    <message>
        <source>the file ends in the middle of an event</source>
        <translation>文件在事件中间结束</translation>
    </message>
    <message>
        <source>while decompressing</source>
        <translation>解压时</translation>
    </message>
    <message>
        <source>0 events</source>
        <translation>0 个事件</translation>
    </message>
    <message>
        <source>at byte %1 of %2</source>
        <translation>于字节 %1 / %2 处</translation>
    </message>
    <message>
        <source>%1 events</source>
        <translation>%1 个事件</translation>
    </message>
    <message>
        <source>%1: the trace contains no events</source>
        <translation>%1：trace 中没有事件</translation>
    </message>
    <message>
        <source>AT_MEMORY_LIMIT=&apos;%1&apos; is not a size of at least %2 such as 8G or 512M; it was ignored</source>
        <translation>AT_MEMORY_LIMIT=&apos;%1&apos; 不是至少 %2 的大小（如 8G 或 512M）；已忽略</translation>
    </message>
    <message>
        <source> (the limit is 80 % of the RAM: %1)</source>
        <translation>（上限为内存的 80%：%1）</translation>
    </message>
    <message>
        <source>%1: raw data was requested but no PROF_*/host|device_N/data folder was found; the export was loaded instead</source>
        <translation>%1：要求使用原始数据，但没有找到 PROF_*/host|device_N/data 文件夹；改为加载导出数据</translation>
    </message>
    <message>
        <source>%1 holds results of %2 runs; showing %3. Open the others separately (their clocks are not aligned): %4</source>
        <translation>%1 含有 %2 次运行的结果；显示 %3。请分别打开其他运行（它们的时钟未对齐）：%4</translation>
    </message>
    <message>
        <source>no profiling result with a timeline was found</source>
        <translation>没有找到含时间线的性能数据结果</translation>
    </message>
    <message>
        <source>%1: no such file or folder</source>
        <translation>%1：文件或文件夹不存在</translation>
    </message>
    <message>
        <source>%1 line %2: %3</source>
        <translation>%1 第 %2 行：%3</translation>
    </message>
    <message>
        <source>%1 line %2: %3 (%4 rows like it)</source>
        <translation>%1 第 %2 行：%3（同类行共 %4 行）</translation>
    </message>
    <message>
        <source>device &quot;%1&quot; is not NPU:&lt;id&gt; or a number (kept as unknown)</source>
        <translation>设备“%1”不是 NPU:&lt;id&gt; 或数字（按未知设备保留）</translation>
    </message>
    <message>
        <source>%1 &quot;%2&quot; is not a number (row skipped)</source>
        <translation>%1“%2”不是数字（已跳过该行）</translation>
    </message>
    <message>
        <source>%1 &quot;%2&quot; is not a time in µs (row skipped)</source>
        <translation>%1“%2”不是以 µs 为单位的时间（已跳过该行）</translation>
    </message>
    <message>
        <source>%1: reading stopped after %2 rows (line %3); the rows before are kept</source>
        <translation>%1：读取在 %2 行后停止（第 %3 行）；已保留之前读取的行</translation>
    </message>
    <message>
        <source>%1: no Component or Timestamp(us) column; memory curves not read</source>
        <translation>%1：缺少 Component 或 Timestamp(us) 列；未读取内存曲线</translation>
    </message>
    <message>
        <source>empty Component (row skipped)</source>
        <translation>Component 为空（已跳过该行）</translation>
    </message>
    <message>
        <source>empty Timestamp(us) (row skipped)</source>
        <translation>Timestamp(us) 为空（已跳过该行）</translation>
    </message>
    <message>
        <source>%1: no Name or Size column; operator allocations not read</source>
        <translation>%1：缺少 Name 或 Size 列；未读取算子内存分配</translation>
    </message>
    <message>
        <source>empty Size (row skipped)</source>
        <translation>Size 为空（已跳过该行）</translation>
    </message>
    <message>
        <source>the snapshot cache %1 lies inside the data folder %2: running without it</source>
        <translation>快照缓存 %1 位于数据文件夹 %2 内：不使用快照缓存</translation>
    </message>
    <message>
        <source>in the middle</source>
        <translation>在中途</translation>
    </message>
    <message>
        <source>%1 slices</source>
        <translation>%1 个切片</translation>
    </message>
    <message>
        <source>%1: %2 rows of %3 have no usable time and were skipped</source>
        <translation>%1：%3 中有 %2 行没有可用时间，已跳过</translation>
    </message>
    <message>
        <source>%1 could not be read (%2)</source>
        <translation>%1 无法读取（%2）</translation>
    </message>
    <message>
        <source>%1: reading stopped after %2 rows (%3)</source>
        <translation>%1：读取在 %2 行后停止（%3）</translation>
    </message>
    <message>
        <source>%1: the database lacks %2 (a schema version this viewer does not know); everything else was loaded</source>
        <translation>%1：数据库缺少 %2（本查看器不认识的表结构版本）；其余内容已加载</translation>
    </message>
    <message>
        <source>%1: the database holds no timeline data (no TASK, CANN_API or PYTORCH_API rows)</source>
        <translation>%1：数据库中没有时间线数据（没有 TASK、CANN_API 或 PYTORCH_API 行）</translation>
    </message>
    <message>
        <source>%1: cannot read the file</source>
        <translation>%1：无法读取文件</translation>
    </message>
    <message>
        <source>%1: the Qt SQLite driver (QSQLITE, Debian package libqt6sql6-sqlite) is not installed</source>
        <translation>%1：未安装 Qt SQLite 驱动（QSQLITE，Debian 软件包 libqt6sql6-sqlite）</translation>
    </message>
    <message>
        <source>%1: cannot copy the database and its -wal file to a temporary folder (its committed rows in the -wal could not be read)</source>
        <translation>%1：无法将数据库及其 -wal 文件复制到临时文件夹（-wal 中已提交的行无法读取）</translation>
    </message>
    <message>
        <source>%1: cannot open the database: %2</source>
        <translation>%1：无法打开数据库：%2</translation>
    </message>
    <message>
        <source>%1: not a readable SQLite database (%2)</source>
        <translation>%1：不是可读取的 SQLite 数据库（%2）</translation>
    </message>
    <message>
        <source>%1: the database is damaged (%2)</source>
        <translation>%1：数据库已损坏（%2）</translation>
    </message>
    <message>
        <source>%1: the database holds no tables (empty, or not an SQLite file)</source>
        <translation>%1：数据库中没有表（为空，或不是 SQLite 文件）</translation>
    </message>
    <message>
        <source>Its device tasks are drawn from kernel_details.csv.</source>
        <translation>其设备任务根据 kernel_details.csv 绘制。</translation>
    </message>
    <message>
        <source>Only its summary tables are available.</source>
        <translation>只有其汇总表可用。</translation>
    </message>
    <message>
        <source>%1 has no timeline: %2 holds neither trace_view.json nor ascend_pytorch_profiler*.db. %3</source>
        <translation>%1 没有时间线：%2 中既没有 trace_view.json 也没有 ascend_pytorch_profiler*.db。%3</translation>
    </message>
    <message>
        <source>, device tasks drawn from %1 (no trace_view.json or database)</source>
        <translation>，设备任务取自 %1（没有 trace_view.json 或数据库）</translation>
    </message>
    <message>
        <source>%1 is %2, not a regular file: it was not read</source>
        <translation>%1 是%2，不是普通文件：未读取</translation>
    </message>
    <message>
        <source>%1 is not a regular file: it was not read</source>
        <translation>%1 不是普通文件：未读取</translation>
    </message>
    <message>
        <source>%1 is a symbolic link to %2, which does not exist: it was not read</source>
        <translation>%1 是指向 %2 的符号链接，但目标不存在：未读取</translation>
    </message>
    <message>
        <source>%1: %2; decoded as a %3 chip because of the files present</source>
        <translation>%1：%2；根据现有文件按 %3 芯片解码</translation>
    </message>
    <message>
        <source>no info.json platform_version</source>
        <translation>info.json 中没有 platform_version</translation>
    </message>
    <message>
        <source>%1: DeviceInfo[0] has no hwts_frequency</source>
        <translation>%1：DeviceInfo[0] 中没有 hwts_frequency</translation>
    </message>
    <message>
        <source>%1: DeviceInfo[0].hwts_frequency is &quot;%2&quot;, not a frequency in MHz above 0 and at most %3</source>
        <translation>%1：DeviceInfo[0].hwts_frequency 为“%2”，不是大于 0 且不超过 %3 的 MHz 频率</translation>
    </message>
    <message>
        <source>%1 has no info.json.%2 (nor any info.json* file)</source>
        <translation>%1 中没有 info.json.%2（也没有任何 info.json* 文件）</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>%1 has no DeviceInfo entry</source>
        <translation>%1 中没有 DeviceInfo 条目</translation>
    </message>
    <message>
        <source>%1: no hwts_frequency (info.json.%2 missing or incomplete): %3 of device task logs cannot be put on the clock and were not decoded (%4)</source>
        <translation>%1：没有 hwts_frequency（info.json.%2 缺失或不完整）：设备任务日志的 %3 无法换算到时钟上，未解码（%4）</translation>
    </message>
    <message>
        <source>%1: the load was stopped while device task slices were made: %2 of %3 tasks were kept</source>
        <translation>%1：生成设备任务切片时加载被停止：保留了 %3 个任务中的 %2 个</translation>
    </message>
    <message>
        <source>%1: %2 of %3 device tasks have no host task_track record with a known kernel name: named by their task type</source>
        <translation>%1：%3 个设备任务中有 %2 个没有带已知核函数名的主机 task_track 记录：按任务类型命名</translation>
    </message>
    <message>
        <source>%1: %2 with an entry count above 55 skipped</source>
        <translation>%1：跳过了条目数超过 55 的 %2</translation>
    </message>
    <message>
        <source>%1 with a wrong magic skipped</source>
        <translation>跳过了魔数错误的 %1</translation>
    </message>
    <message>
        <source>%1 with another data tag skipped</source>
        <translation>跳过了数据标签不同的 %1</translation>
    </message>
    <message>
        <source>%1 without a start tick dropped</source>
        <translation>丢弃了没有开始时钟计数的 %1</translation>
    </message>
    <message>
        <source>%1 ending before it starts dropped</source>
        <translation>丢弃了结束早于开始的 %1</translation>
    </message>
    <message>
        <source>%1 with an unknown tag skipped</source>
        <translation>跳过了标签未知的 %1</translation>
    </message>
    <message>
        <source>%1 without an end mark dropped</source>
        <translation>丢弃了没有结束标记的 %1</translation>
    </message>
    <message>
        <source>%1 without a start mark begin at their first record</source>
        <translation>没有开始标记的 %1 从其第一条记录开始</translation>
    </message>
    <message>
        <source>%1: %2 beyond ±2^62 ns (corrupt ticks) not used as steps</source>
        <translation>%1：超出 ±2^62 ns 的 %2（时钟计数损坏）未用作步骤</translation>
    </message>
    <message>
        <source>%1 after %2 lines</source>
        <translation>%1 在 %2 行之后</translation>
    </message>
    <message>
        <source>%1: %2 without its partner dropped</source>
        <translation>%1：丢弃了没有配对记录的 %2</translation>
    </message>
    <message>
        <source>host data: %1 outside any API range of its thread (no op to attach to)</source>
        <translation>主机数据：%1 不在其线程的任何 API 区间内（无可关联的算子）</translation>
    </message>
    <message>
        <source>%1 with missing message segments (kept as read)</source>
        <translation>消息分段缺失的 %1（按读到的内容保留）</translation>
    </message>
    <message>
        <source>%1 ending before it starts shown as marks</source>
        <translation>结束早于开始的 %1 显示为标记</translation>
    </message>
    <message>
        <source>%1 without a matching task</source>
        <translation>没有匹配任务的 %1</translation>
    </message>
    <message>
        <source>%1 with the overflow flag dropped</source>
        <translation>丢弃了带溢出标志的 %1</translation>
    </message>
    <message>
        <source>%1 of tasks beyond ±2^62 ns (corrupt ticks) left out</source>
        <translation>超出 ±2^62 ns 的任务的 %1（时钟计数损坏）被略去</translation>
    </message>
    <message>
        <source>%1: raw record streams when reading stopped: %2</source>
        <translation>%1：读取停止时各原始记录流的情况：%2</translation>
    </message>
    <message>
        <source>%1: no raw record could be decoded</source>
        <translation>%1：没有可解码的原始记录</translation>
    </message>
    <message>
        <source>%1: %2 with a wrong magic skipped</source>
        <translation>%1：跳过了魔数错误的 %2</translation>
    </message>
    <message>
        <source>%1: truncated: the last %2 bytes are not a whole %3-byte record; the %4 whole records before them were decoded</source>
        <translation>%1：已截断：最后 %2 字节不构成完整的 %3 字节记录；其前的 %4 条完整记录已解码</translation>
    </message>
    <message>
        <source>%1 after %2 records (byte %3 of %4)</source>
        <translation>%1 在 %2 条记录之后（第 %3 字节，共 %4 字节）</translation>
    </message>
    <message>
        <source>lost records: the rolling cnt skipped %1 times (%2 missing)</source>
        <translation>记录丢失：循环计数 cnt 跳变 %1 次（缺少 %2）</translation>
    </message>
    <message>
        <source>%1 without a start dropped</source>
        <translation>丢弃了没有开始记录的 %1</translation>
    </message>
    <message>
        <source>%1 never ended dropped</source>
        <translation>丢弃了从未结束的 %1</translation>
    </message>
    <message>
        <source>%1 replaced by a later start of the same task</source>
        <translation>%1 被同一任务之后的开始记录替换</translation>
    </message>
    <message>
        <source>%1: %2, %3 bytes</source>
        <translation>%1：%2，%3 字节</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>read completely: %1; cut: %2; not read: %3</source>
        <translation>完整读取：%1；中途截断：%2；未读取：%3</translation>
    </message>
    <message>
        <source>Raw data not decoded yet (%1): %2</source>
        <translation>尚未解码的原始数据（%1）：%2</translation>
    </message>
    <message>
        <source>%1 (+%2 slices)</source>
        <translation>%1（另有 %2 个分片）</translation>
    </message>
    <message>
        <source>%1: not a kernel table (no Name / Start Time column); AI Core metrics skipped</source>
        <translation>%1：不是核函数表（没有 Name / Start Time 列）；已跳过 AI Core 指标</translation>
    </message>
    <message>
        <source>%1: %2 rows without a readable start time were skipped</source>
        <translation>%1：跳过了 %2 行无法读取开始时间的数据</translation>
    </message>
    <message numerus="yes">
        <source>%1 (+%n slices)</source>
        <translation>
            <numerusform>%1（另有 %n 个分片）</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 after %2 rows</source>
        <translation>%1 在 %2 行之后</translation>
    </message>
    <message>
        <source>%1 (%2 rows)</source>
        <translation>%1（%2 行）</translation>
    </message>
    <message>
        <source>in its summary tables</source>
        <translation>于其汇总表中</translation>
    </message>
    <message>
        <source>%1 table rows</source>
        <translation>%1 行表格数据</translation>
    </message>
    <message>
        <source>%1: summary tables when reading stopped: %2</source>
        <translation>%1：读取停止时各汇总表的情况：%2</translation>
    </message>
    <message>
        <source>%1: not loaded (the memory limit was reached)</source>
        <translation>%1：未加载（已达到内存上限）</translation>
    </message>
    <message>
        <source>%1: not loaded: %2</source>
        <translation>%1：未加载：%2</translation>
    </message>
    <message numerus="yes">
        <source>%1: %2 is &quot;%3&quot;, not a finite number (%n value(s)); read as 0</source>
        <translation>
            <numerusform>%1：%2 为“%3”，不是有限数值（%n 个值）；按 0 读取</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: the system reports a size of 0 bytes for it, yet it has contents (a /proc or /sys file?): it cannot be read as a file of data</source>
        <translation>%1：系统报告其大小为 0 字节，但它有内容（/proc 或 /sys 文件？）：无法作为数据文件读取</translation>
    </message>
    <message>
        <source>not valid JSON (%1 at byte %2, near &quot;%3&quot;)</source>
        <translation>不是有效的 JSON（字节 %2 处：%1，附近为“%3”）</translation>
    </message>
    <message>
        <source>%1 is a folder where a file was expected: it was not read</source>
        <translation>%1 是文件夹，此处应为文件：未读取</translation>
    </message>
    <message>
        <source>no reader recognises its name or its contents.</source>
        <translation>没有读取器能识别它的名称或内容。</translation>
    </message>
    <message>
        <source>%1: reading stopped %2 because %3; the %4 read before were kept</source>
        <translation>%1：读取在%2停止，因为%3；之前读取的 %4 已保留</translation>
    </message>
    <message>
        <source>memory use reached the limit for reading (%1, %2 % of the %3 limit: building the model needs the rest; raise it with --memory-limit or AT_MEMORY_LIMIT)</source>
        <translation>内存占用达到读取上限（%1，即 %3 上限的 %2 %：其余留给构建模型；可用 --memory-limit 或 AT_MEMORY_LIMIT 调高）</translation>
    </message>
    <message>
        <source>; and %1 more</source>
        <translation>；另有 %1 项</translation>
    </message>
    <message>
        <source>%1: no raw record could be decoded: %2</source>
        <translation>%1：没有可解码的原始记录：%2</translation>
    </message>
    <message>
        <source>%1 is a symbolic link to %2; read as a rank folder</source>
        <translation>%1 是指向 %2 的符号链接；已作为 rank 文件夹读取</translation>
    </message>
    <message>
        <source>%1 is a symbolic link to %2, which is not a folder; skipped</source>
        <translation>%1 是指向 %2 的符号链接，而该目标不是文件夹；已跳过</translation>
    </message>
    <message>
        <source>%1: the rank id %2 is beyond the largest rank id (%3); folder skipped</source>
        <translation>%1：rank ID %2 超出最大 rank ID（%3）；已跳过该文件夹</translation>
    </message>
    <message>
        <source>memory use reached the limit for reading a cluster&apos;s operators (%1, %2 % of the %3 limit: the analyses and their output need the rest; raise it with --memory-limit or AT_MEMORY_LIMIT)</source>
        <translation>读取集群算子时内存用量已达上限（%1，即 %3 上限的 %2 %：其余留给分析及其输出；可用 --memory-limit 或 AT_MEMORY_LIMIT 提高上限）</translation>
    </message>
    <message>
        <source>%1: rank_id %2 is beyond the largest rank id (%3); not used</source>
        <translation>%1：rank_id %2 超出最大 rank ID（%3）；未使用</translation>
    </message>
    <message>
        <source>%1: distributed_args.rank %2 is beyond the largest rank id (%3); not used</source>
        <translation>%1：distributed_args.rank %2 超出最大 rank ID（%3）；未使用</translation>
    </message>
    <message>
        <source>line %1</source>
        <translation>第 %1 行</translation>
    </message>
    <message>
        <source>StepTraceTime row %1</source>
        <translation>StepTraceTime 第 %1 行</translation>
    </message>
    <message>
        <source>STEP_TIME id %1</source>
        <translation>STEP_TIME id %1</translation>
    </message>
    <message>
        <source>OVERLAP_ANALYSIS row %1</source>
        <translation>OVERLAP_ANALYSIS 第 %1 行</translation>
    </message>
    <message>
        <source>the sum of its OVERLAP_ANALYSIS rows</source>
        <translation>其 OVERLAP_ANALYSIS 各行之和</translation>
    </message>
    <message>
        <source>op %1</source>
        <translation>算子 %1</translation>
    </message>
    <message>
        <source>ops</source>
        <translation>个算子</translation>
    </message>
    <message>
        <source>at %1 of %2</source>
        <translation>于 %2 的 %1 处</translation>
    </message>
    <message>
        <source>CommAnalyzerTime op %1@%2 (%3)</source>
        <translation>CommAnalyzerTime 算子 %1@%2（%3）</translation>
    </message>
    <message>
        <source>CommAnalyzerBandwidth row %1</source>
        <translation>CommAnalyzerBandwidth 第 %1 行</translation>
    </message>
    <message>
        <source>link %1 of %2</source>
        <translation>%2 的链路 %1</translation>
    </message>
    <message>
        <source>links</source>
        <translation>条链路</translation>
    </message>
    <message>
        <source>CommAnalyzerMatrix link %1-%2 of %3@%4</source>
        <translation>%3@%4 的 CommAnalyzerMatrix 链路 %1-%2</translation>
    </message>
    <message>
        <source>not a finite number</source>
        <translation>不是有限数值</translation>
    </message>
    <message>
        <source>negative</source>
        <translation>为负数</translation>
    </message>
    <message>
        <source>beyond what a profile can hold (2^62 ns)</source>
        <translation>超出性能数据可容纳的范围（2^62 ns）</translation>
    </message>
    <message>
        <source>which takes the rank&apos;s total beyond 2^62 ns</source>
        <translation>使该 rank 的总和超出 2^62 ns</translation>
    </message>
    <message numerus="yes">
        <source>%n row(s) like this skipped</source>
        <translation>
            <numerusform>已跳过 %n 行此类数据</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n op(s) like this skipped</source>
        <translation>
            <numerusform>已跳过 %n 个此类算子</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n link(s) like this skipped</source>
        <translation>
            <numerusform>已跳过 %n 条此类链路</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: %2 is %3, not an object; %4</source>
        <translation>%1：%2 为 %3，不是对象；%4</translation>
    </message>
    <message>
        <source>%1: %2: %3 is &quot;%4&quot;, %5; %6</source>
        <translation>%1：%2：%3 为“%4”，%5；%6</translation>
    </message>
    <message>
        <source>written by another version (format %1, this version reads %2): prepare the rank again</source>
        <translation>由其他版本写入（格式 %1，本版本读取格式 %2）：请重新准备该 rank</translation>
    </message>
    <message>
        <source>its checksum does not match its content: it was changed after it was written</source>
        <translation>其校验和与内容不符：写入后已被修改</translation>
    </message>
    <message>
        <source>the folder&apos;s file names give no rank id (profiler_info_&lt;N&gt;.json, ascend_pytorch_profiler_&lt;N&gt;.db), so the summary&apos;s cannot be checked</source>
        <translation>该文件夹的文件名未给出 rank 编号（profiler_info_&lt;N&gt;.json、ascend_pytorch_profiler_&lt;N&gt;.db），因此无法核对摘要中的 rank</translation>
    </message>
    <message>
        <source>it claims rank %1 but the folder is rank %2</source>
        <translation>它声称是 rank %1，但该文件夹是 rank %2</translation>
    </message>
    <message>
        <source>%1 is not recorded in it</source>
        <translation>其中未记录 %1</translation>
    </message>
    <message>
        <source>%1, %2 % of the %3 limit, is for reading a cluster&apos;s operators; raise it with --memory-limit or AT_MEMORY_LIMIT</source>
        <translation>%1（即 %3 上限的 %2 %）用于读取集群算子；可用 --memory-limit 或 AT_MEMORY_LIMIT 提高上限</translation>
    </message>
    <message>
        <source>at %1 it does not fit under the memory limit: %2</source>
        <translation>其大小为 %1，超出内存上限：%2</translation>
    </message>
    <message>
        <source>reading it stopped when memory use reached the limit: %1</source>
        <translation>内存用量达到上限，读取已停止：%1</translation>
    </message>
    <message>
        <source>%1; its steps were not read</source>
        <translation>%1；未读取其 step</translation>
    </message>
    <message>
        <source>%1: no GPU kernels; no step breakdown</source>
        <translation>%1：没有 GPU kernel；无 step 时间拆解</translation>
    </message>
    <message>
        <source>%1: distributedInfo.rank %2 is already the rank of %3</source>
        <translation>%1：distributedInfo.rank %2 已是 %3 的 rank</translation>
    </message>
    <message>
        <source>%1: no usable distributedInfo.rank; rank %2 taken from its folder name</source>
        <translation>%1：没有可用的 distributedInfo.rank；rank %2 取自其文件夹名</translation>
    </message>
    <message>
        <source>%1: no usable distributedInfo.rank; read as rank %2 (file order)</source>
        <translation>%1：没有可用的 distributedInfo.rank；按文件顺序读作 rank %2</translation>
    </message>
    <message>
        <source>GPU traces do not record the links between ranks: the link matrix is empty</source>
        <translation>GPU trace 不记录 rank 之间的链路：链路矩阵为空</translation>
    </message>
    <message>
        <source>%1 and %2 both claim rank %3; both are loaded.</source>
        <translation>%1 和 %2 都声明为 rank %3；两者均已加载。</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>; %1 finishes without a start left out (runtime calls that launch no GPU work)</source>
        <translation>；%1 个没有起点的终点未绘制（未启动 GPU 工作的运行时调用）</translation>
    </message>
    <message>
        <source>; %1 starts without a finish left out (GPU side not recorded: %2)</source>
        <translation>；%1 个没有终点的起点未绘制（GPU 侧未记录：%2）</translation>
    </message>
    <message>
        <source>%1: %2 GPU kernel, CPU operator or [memory] events could not be read for the kernel table and memory curves (the first at byte %3)</source>
        <translation>%1：%2 个 GPU kernel、CPU 算子或 [memory] 事件无法读取，未计入 kernel 表和内存曲线（第一个位于字节 %3）</translation>
    </message>
    <message>
        <source>: %1 ranks</source>
        <translation>：%1 个 rank</translation>
    </message>
    <message>
        <source>baseTimeNanoseconds is not an integer: %1</source>
        <translation>baseTimeNanoseconds 不是整数：%1</translation>
    </message>
    <message>
        <source>process</source>
        <translation>进程</translation>
    </message>
    <message>
        <source>%1 · GPU annotations</source>
        <translation>%1 · GPU 注解</translation>
    </message>
    <message>
        <source>%1 GiB</source>
        <translation>%1 GiB</translation>
    </message>
    <message>
        <source>%1 SMs</source>
        <translation>%1 个 SM</translation>
    </message>
    <message>
        <source>compute capability %1.%2</source>
        <translation>计算能力 %1.%2</translation>
    </message>
    <message>
        <source>PyTorch profiler (Kineto) GPU trace, schema %1</source>
        <translation>PyTorch profiler (Kineto) GPU trace，schema %1</translation>
    </message>
    <message>
        <source>PyTorch profiler (Kineto) GPU trace</source>
        <translation>PyTorch profiler (Kineto) GPU trace</translation>
    </message>
    <message>
        <source>baseTimeNanoseconds %1: ts are µs relative to it</source>
        <translation>baseTimeNanoseconds %1：ts 为相对于它的微秒数</translation>
    </message>
    <message>
        <source>none recorded: times are relative to an unknown start</source>
        <translation>未记录：时间相对于未知的起点</translation>
    </message>
    <message>
        <source>%1: the timestamps are relative and no baseTimeNanoseconds could be read (libkineto of 2024-04/05 wrote none): times are shown from an unknown start, not as wall-clock time</source>
        <translation>%1：时间戳是相对值，且未能读取 baseTimeNanoseconds（2024-04/05 的 libkineto 不写它）：时间从未知起点显示，而非挂钟时间</translation>
    </message>
    <message>
        <source>ts are absolute µs since the Unix epoch</source>
        <translation>ts 为自 Unix 纪元起的绝对微秒数</translation>
    </message>
    <message>
        <source>%1: the keys beside &quot;traceEvents&quot; could not all be read (%2); the events were read with their times as written</source>
        <translation>%1：&quot;traceEvents&quot; 之外的键未能全部读取（%2）；事件按所写时间读取</translation>
    </message>
    <message>
        <source>%1: no %2 table; what it holds is not shown</source>
        <translation>%1：没有 %2 表；其中的数据未显示</translation>
    </message>
    <message>
        <source>%1: table %2 has no column %3; read as empty</source>
        <translation>%1：表 %2 没有列 %3；按空值读取</translation>
    </message>
    <message>
        <source>%1: table %2 could not be read (%3)</source>
        <translation>%1：无法读取表 %2（%3）</translation>
    </message>
    <message>
        <source>%1: table %2 could not be read to its end (%3)</source>
        <translation>%1：表 %2 未能读到末尾（%3）</translation>
    </message>
    <message>
        <source>%1: ClusterBaseInfo distributed_args is not a JSON object</source>
        <translation>%1：ClusterBaseInfo 的 distributed_args 不是 JSON 对象</translation>
    </message>
    <message>
        <source>ClusterStepTraceTime row %1</source>
        <translation>ClusterStepTraceTime 第 %1 行</translation>
    </message>
    <message>
        <source>op %1@%2 of rank %3</source>
        <translation>rank %3 的算子 %1@%2</translation>
    </message>
    <message>
        <source>%1 row %2</source>
        <translation>%1 第 %2 行</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n value(s) that are not finite numbers read as 0</source>
        <translation>
            <numerusform>%1：%n 个非有限数值按 0 读取</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: the stage rows of ClusterStepTraceTime name the stages %2, the pp groups give %3; the pp groups are used</source>
        <translation>%1：ClusterStepTraceTime 的 stage 行给出的阶段为 %2，pp 通信组给出的为 %3；采用 pp 通信组</translation>
    </message>
    <message>
        <source>%1; not read as msprof-analyze&apos;s cluster database</source>
        <translation>%1；未作为 msprof-analyze 的集群数据库读取</translation>
    </message>
    <message>
        <source>%1: holds neither ClusterStepTraceTime nor ClusterCommunicationTime; not an msprof-analyze cluster database</source>
        <translation>%1：既没有 ClusterStepTraceTime 也没有 ClusterCommunicationTime；不是 msprof-analyze 的集群数据库</translation>
    </message>
    <message>
        <source>%1 is missing; the cluster is read without it</source>
        <translation>%1 缺失；集群在没有它的情况下读取</translation>
    </message>
    <message>
        <source>%1: line %2: the number of fields differs from the header; %3 row(s) like this skipped</source>
        <translation>%1：第 %2 行：字段数与表头不同；跳过 %3 行此类数据</translation>
    </message>
    <message>
        <source>%1: %2: a rank row whose Index is not a rank id; %3 row(s) like this skipped</source>
        <translation>%1：%2：rank 行的 Index 不是 rank ID；跳过 %3 行此类数据</translation>
    </message>
    <message>
        <source>%1: no comm_group_parallel_info; the ranks have no parallel groups</source>
        <translation>%1：没有 comm_group_parallel_info；各 rank 没有并行组</translation>
    </message>
    <message>
        <source>%1: %2 group(s) without a group_name or a rank_set skipped</source>
        <translation>%1：跳过 %2 个没有 group_name 或 rank_set 的组</translation>
    </message>
    <message>
        <source>op %1 of rank %2</source>
        <translation>rank %2 的算子 %1</translation>
    </message>
    <message>
        <source>%1: the stage row %2 is not a pipeline stage of the pp groups; the stages come from the pp groups</source>
        <translation>%1：stage 行 %2 不是 pp 组的流水线阶段；阶段取自 pp 组</translation>
    </message>
    <message>
        <source>%1: the stage row %2 is not the maximum of its ranks&apos; rows in %3</source>
        <translation>%1：stage 行 %2 在 %3 上不是其各 rank 行的最大值</translation>
    </message>
    <message>
        <source>%1: cannot be read for the MoE load (%2)</source>
        <translation>%1：无法读取以计算 MoE 负载（%2）</translation>
    </message>
    <message numerus="yes">
        <source>%1: no Input Shapes column; the tokens of its %n GroupedMatmul row(s) are unknown (export with record_shapes=True)</source>
        <translation>
            <numerusform>%1：没有 Input Shapes 列，其 %n 行 GroupedMatmul 的 token 数未知（请以 record_shapes=True 导出）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1: %n GroupedMatmul row(s) with an Input Shapes that is no shape list (first at line %2); left out of the MoE load</source>
        <translation>
            <numerusform>%1：%n 行 GroupedMatmul 的 Input Shapes 不是形状列表（首次出现在第 %2 行）；未计入 MoE 负载</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: cannot read: %2</source>
        <translation>%1：无法读取：%2</translation>
    </message>
</context>
<context>
    <name>PreparedCache</name>
    <message>
        <source>Folder of a prepared cluster (--prepare RANK_DIR --cache DIR)</source>
        <translation>预处理集群的文件夹（--prepare RANK_DIR --cache DIR）</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>unknown chart &quot;%1&quot; (expected one of: %2)</source>
        <translation>未知图表 &quot;%1&quot;（应为以下之一：%2）</translation>
    </message>
    <message>
        <source>top-kernels: &quot;%1&quot; is not a positive number of kernels</source>
        <translation>top-kernels：&quot;%1&quot; 不是有效的算子数量（须为正数）</translation>
    </message>
    <message>
        <source>kernel-metrics: no kernel named &quot;%1&quot;</source>
        <translation>kernel-metrics：没有名为 &quot;%1&quot; 的算子</translation>
    </message>
    <message>
        <source>scatter: no metric column &quot;%1&quot;</source>
        <translation>scatter：没有指标列 &quot;%1&quot;</translation>
    </message>
    <message>
        <source>unknown chart &quot;%1&quot;</source>
        <translation>未知图表 &quot;%1&quot;</translation>
    </message>
    <message>
        <source>rendering a chart needs a QApplication (use QT_QPA_PLATFORM=offscreen)</source>
        <translation>渲染图表需要 QApplication（请使用 QT_QPA_PLATFORM=offscreen）</translation>
    </message>
    <message>
        <source>chart size %1x%2 is empty</source>
        <translation>图表尺寸 %1x%2 为空</translation>
    </message>
    <message>
        <source>%1: cannot write PNG: %2</source>
        <translation>%1：无法写入 PNG：%2</translation>
    </message>
    <message>
        <source>%1: no kernel table (kernel_details.csv / op_summary_*.csv) in this profile</source>
        <translation>%1：此性能数据中没有算子表（kernel_details.csv / op_summary_*.csv）</translation>
    </message>
    <message>
        <source>%1: nothing to show</source>
        <translation>%1：没有可显示的内容</translation>
    </message>
    <message>
        <source>AI Cube (aic)</source>
        <translation>AI Cube (aic)</translation>
    </message>
    <message>
        <source>AI Vector (aiv)</source>
        <translation>AI Vector (aiv)</translation>
    </message>
    <message>
        <source>AI Core</source>
        <translation>AI Core</translation>
    </message>
    <message>
        <source>Pipe utilization: %1</source>
        <translation>流水线利用率：%1</translation>
    </message>
    <message>
        <source>Pipe utilization: %1 kernels</source>
        <translation>流水线利用率：%1 个算子</translation>
    </message>
    <message>
        <source>Memory bandwidth</source>
        <translation>内存带宽</translation>
    </message>
    <message>
        <source>Ratios</source>
        <translation>比率</translation>
    </message>
    <message>
        <source>%1: %2 kernels</source>
        <translation>%1：%2 个算子</translation>
    </message>
    <message>
        <source>Top kernels</source>
        <translation>Top 算子</translation>
    </message>
    <message>
        <source>Kernel metrics</source>
        <translation>算子指标</translation>
    </message>
    <message>
        <source>Time by task type</source>
        <translation>按任务类型的耗时</translation>
    </message>
    <message>
        <source>Duration vs metric</source>
        <translation>耗时与指标的关系</translation>
    </message>
    <message>
        <source>Top %1 kernels by total time</source>
        <translation>总耗时 Top %1 算子</translation>
    </message>
    <message>
        <source>%1
%2 · count %3 · total %4 · avg %5 · min %6 · max %7</source>
        <translation>%1
%2 · 次数 %3 · 总计 %4 · 平均 %5 · 最小 %6 · 最大 %7</translation>
    </message>
    <message>
        <source>Total duration (µs)</source>
        <translation>总耗时 (µs)</translation>
    </message>
    <message>
        <source>%1 (first %2 of %3 selected)</source>
        <translation>%1（所选 %3 个中的前 %2 个）</translation>
    </message>
    <message>
        <source>%1: no %2 values for %3</source>
        <translation>%1：%3 没有 %2 值</translation>
    </message>
    <message>
        <source>AI Core metric</source>
        <translation>AI Core 指标</translation>
    </message>
    <message>
        <source>%1: no AI Core metric values for these kernels</source>
        <translation>%1：这些算子没有 AI Core 指标值</translation>
    </message>
    <message>
        <source>Device time by task type</source>
        <translation>按任务类型的设备耗时</translation>
    </message>
    <message>
        <source>%1 (%2 in kernels)</source>
        <translation>%1（算子共 %2）</translation>
    </message>
    <message>
        <source>Duration vs %1</source>
        <translation>耗时与 %1 的关系</translation>
    </message>
    <message>
        <source>Duration vs %1 (%2 kernels)</source>
        <translation>耗时与 %1 的关系（%2 个算子）</translation>
    </message>
    <message>
        <source>Duration (µs)</source>
        <translation>耗时 (µs)</translation>
    </message>
    <message>
        <source>½× faster</source>
        <translation>½×（更快）</translation>
    </message>
    <message>
        <source>2× slower</source>
        <translation>2×（更慢）</translation>
    </message>
    <message>
        <source>unmatched</source>
        <translation>未匹配</translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Export table</source>
        <translation>导出表格</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>not a regular file</source>
        <translation>不是普通文件</translation>
    </message>
    <message>
        <source>Busy time of each pipe (% of kernel time)</source>
        <translation>各流水线繁忙时间（占算子耗时的 %）</translation>
    </message>
    <message>
        <source>Bandwidth (GB/s)</source>
        <translation>带宽 (GB/s)</translation>
    </message>
    <message>
        <source>Share of kernel time (%)</source>
        <translation>占算子耗时 (%)</translation>
    </message>
</context>
<context>
    <name>SourceProvenance</name>
    <message>
        <source>SQLite database %1</source>
        <translation>SQLite 数据库 %1</translation>
    </message>
    <message>
        <source>timeline source</source>
        <translation>时间线来源</translation>
    </message>
    <message>
        <source>other source</source>
        <translation>其他来源</translation>
    </message>
    <message>
        <source>text export</source>
        <translation>文本导出</translation>
    </message>
    <message>
        <source>raw data (PROF_*/*/data slices decoded by Ascend Timeline)</source>
        <translation>原始数据（由 Ascend Timeline 解析的 PROF_*/*/data 切片文件）</translation>
    </message>
    <message>
        <source>raw data</source>
        <translation>原始数据</translation>
    </message>
    <message>
        <source>PROF_*/*/data slices (load them with --source raw or File ▸ Reload from Raw Data)</source>
        <translation>PROF_*/*/data 切片文件（用 --source raw 或 文件 ▸ 从原始数据重新加载 来加载）</translation>
    </message>
</context>
<context>
    <name>ViewExport</name>
    <message>
        <source>Could not write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>SVG images (*.svg)</source>
        <translation>SVG 图像 (*.svg)</translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <source>Could not write %1</source>
        <translation>无法写入 %1</translation>
    </message>
</context>
<context>
    <name>at::ChartsPanel</name>
    <message>
        <source>Top</source>
        <translation>前</translation>
    </message>
    <message>
        <source>Split by input shape</source>
        <translation>按输入形状拆分</translation>
    </message>
    <message>
        <source>Metric:</source>
        <translation>指标：</translation>
    </message>
    <message>
        <source>Chart:</source>
        <translation>图表：</translation>
    </message>
    <message>
        <source>Number of kernels shown</source>
        <translation>显示的算子数量</translation>
    </message>
    <message>
        <source>Open a profile to see charts</source>
        <translation>打开性能数据以查看图表</translation>
    </message>
    <message>
        <source>%1
duration %2 µs · %3</source>
        <translation>%1
耗时 %2 µs · %3</translation>
    </message>
</context>
<context>
    <name>at::ClusterController</name>
    <message>
        <source>◂ Cluster</source>
        <translation>◂ 集群</translation>
    </message>
    <message>
        <source>Back to the Cluster page of these ranks (the timeline stays loaded)</source>
        <translation>返回这些 Rank 的集群页（时间线保持加载）</translation>
    </message>
    <message>
        <source>%1 (cluster) — Ascend Timeline</source>
        <translation>%1（集群）— Ascend Timeline</translation>
    </message>
    <message numerus="yes">
        <source>Cluster %1: %n rank(s) read from their summary files</source>
        <translation>
            <numerusform>集群 %1：已从汇总文件读取 %n 个 Rank</numerusform>
        </translation>
    </message>
    <message>
        <source>Cluster %1: %2 of %3 ranks from prepared summaries in %4</source>
        <translation>集群 %1：%3 个 Rank 中有 %2 个来自 %4 中的预处理摘要</translation>
    </message>
    <message numerus="yes">
        <source>Cluster read with %n warning(s): %1</source>
        <translation>
            <numerusform>读取集群时有 %n 条警告：%1</numerusform>
        </translation>
    </message>
    <message>
        <source>Rank %1 has only summary files (no trace_view.json, kernel_details.csv or database): there is no timeline to open.</source>
        <translation>Rank %1 只有汇总文件（没有 trace_view.json、kernel_details.csv 或数据库）：没有可打开的时间线。</translation>
    </message>
    <message>
        <source>Rank(s) %1 have only summary files (no trace_view.json, kernel_details.csv or database): there is no timeline to open.</source>
        <translation>Rank %1 只有汇总文件（没有 trace_view.json、kernel_details.csv 或数据库）：没有可打开的时间线。</translation>
    </message>
    <message>
        <source>%1 (%2) — Ascend Timeline</source>
        <translation>%1（%2）— Ascend Timeline</translation>
    </message>
    <message>
        <source>Not opened (summary files only, no timeline): rank(s) %1.</source>
        <translation>未打开（只有汇总文件，没有时间线）：Rank %1。</translation>
    </message>
    <message>
        <source>%1 is not on the timeline of the open ranks (no communication lane has it).</source>
        <translation>%1 不在已打开 Rank 的时间线上（没有通信泳道包含它）。</translation>
    </message>
    <message numerus="yes">
        <source>%1 on %n rank(s)</source>
        <translation>
            <numerusform>%1，位于 %n 个 Rank 上</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Opened with %n warning(s): %1</source>
        <translation>
            <numerusform>已打开，有 %n 条警告：%1</numerusform>
        </translation>
    </message>
    <message>
        <source>Close %1</source>
        <translation>关闭 %1</translation>
    </message>
    <message>
        <source>Reload the timeline without this rank (its memory is released)</source>
        <translation>不含此 Rank 重新加载时间线（释放其内存）</translation>
    </message>
    <message>
        <source>Rank Offsets…</source>
        <translation>Rank 偏移…</translation>
    </message>
    <message>
        <source>Rank offsets need a timeline with several ranks (open ranks from the Cluster page, or a folder of rank folders).</source>
        <translation>Rank 偏移需要包含多个 Rank 的时间线（从集群页打开 Rank，或打开包含多个 Rank 文件夹的文件夹）。</translation>
    </message>
    <message>
        <source>the prepared cache folder %1 lies inside the data folder %2: the cluster was read without it and nothing is written there</source>
        <translation>预处理缓存文件夹 %1 位于数据文件夹 %2 内：读取集群时未使用它，也不会向其中写入任何内容</translation>
    </message>
</context>
<context>
    <name>at::ClusterHeatMap</name>
    <message>
        <source>No values to show</source>
        <translation>没有可显示的数值</translation>
    </message>
    <message>
        <source>Heat map</source>
        <translation>热力图</translation>
    </message>
    <message>
        <source>Colour scale: %1</source>
        <translation>色标：%1</translation>
    </message>
</context>
<context>
    <name>at::ClusterView</name>
    <message>
        <source>(no step)</source>
        <translation>（无步骤）</translation>
    </message>
    <message>
        <source>Findings</source>
        <translation>发现</translation>
    </message>
    <message>
        <source>Step Time per Rank and Step</source>
        <translation>各 Rank 各步骤的步骤时间</translation>
    </message>
    <message>
        <source>Communication Matrix</source>
        <translation>通信矩阵</translation>
    </message>
    <message>
        <source>No cluster open.</source>
        <translation>未打开集群。</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>Rank</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Stage</source>
        <translation>流水线阶段</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>步骤数</translation>
    </message>
    <message>
        <source>Computing</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>Communication (not overlapped)</source>
        <translation>通信（未被掩盖）</translation>
    </message>
    <message>
        <source>Overlapped</source>
        <translation>重叠</translation>
    </message>
    <message>
        <source>Free</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>Bubble</source>
        <translation>气泡</translation>
    </message>
    <message>
        <source>Preparing</source>
        <translation>准备</translation>
    </message>
    <message>
        <source>Stage Time</source>
        <translation>阶段时间</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>Timeline</source>
        <translation>时间线</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>有</translation>
    </message>
    <message>
        <source>summary only</source>
        <translation>仅汇总文件</translation>
    </message>
    <message>
        <source>ms</source>
        <translation>ms</translation>
    </message>
    <message>
        <source>Warning: %1</source>
        <translation>警告：%1</translation>
    </message>
    <message>
        <source>No slow rank, load imbalance, slow link or long wait found.</source>
        <translation>未发现慢卡、负载不均衡、慢链路或长时间等待。</translation>
    </message>
    <message>
        <source>No communication matrix (communication_matrix.json or analysis.db).</source>
        <translation>没有通信矩阵（communication_matrix.json 或 analysis.db）。</translation>
    </message>
    <message>
        <source>GB/s</source>
        <translation>GB/s</translation>
    </message>
    <message>
        <source>%1, first reached at %2 µs (%3)</source>
        <translation>%1，首次达到于 %2 µs（%3）</translation>
    </message>
    <message>
        <source>Open Selected Ranks</source>
        <translation>打开所选 Rank</translation>
    </message>
    <message>
        <source>Load the selected ranks into one timeline (in the background, only those ranks)</source>
        <translation>将选中的 Rank 加载到同一条时间线（后台加载，只读取这些 Rank）</translation>
    </message>
    <message>
        <source>Open This Group</source>
        <translation>打开本组</translation>
    </message>
    <message>
        <source>Open Slowest and Fastest</source>
        <translation>打开最慢与最快的 Rank</translation>
    </message>
    <message>
        <source>Back to Timeline</source>
        <translation>返回时间线</translation>
    </message>
    <message>
        <source>Show the timeline that is loaded, without reloading it</source>
        <translation>显示已加载的时间线，不重新加载</translation>
    </message>
    <message>
        <source>&amp;Group:</source>
        <translation>组(&amp;G)：</translation>
    </message>
    <message>
        <source>&amp;Op:</source>
        <translation>算子(&amp;O)：</translation>
    </message>
    <message>
        <source>Double-click a finding to open the ranks it names on one timeline</source>
        <translation>双击一条发现，在同一条时间线上打开它涉及的 Rank</translation>
    </message>
    <message>
        <source>Loaded on the timeline: %1</source>
        <translation>时间线上已加载：%1</translation>
    </message>
    <message>
        <source>Select a rank: opens every rank of its pipeline stage or data-parallel group</source>
        <translation>选择一个 Rank：打开其流水线阶段或数据并行组的所有 Rank</translation>
    </message>
    <message>
        <source>Select a rank: opens the slowest and the fastest rank of its group (mean step time)</source>
        <translation>选择一个 Rank：打开其所在组中最慢和最快的 Rank（按平均步骤时间）</translation>
    </message>
    <message>
        <source>Opens ranks %1 (the group of rank %2)</source>
        <translation>打开 Rank %1（Rank %2 所在的组）</translation>
    </message>
    <message>
        <source>Opens ranks %1 (slowest, fastest of the group of rank %2)</source>
        <translation>打开 Rank %1（Rank %2 所在组中最慢、最快的）</translation>
    </message>
    <message numerus="yes">
        <source>Cluster %1: %n rank(s), %2 with summary files only. Times are the mean per step in ms; double-click a rank to open its timeline, or select several and open them on one timeline.</source>
        <translation>
            <numerusform>集群 %1：%n 个 Rank，其中 %2 个只有汇总文件。时间为每步平均值（ms）；双击 Rank 打开其时间线，或选中多个后在同一条时间线上打开。</numerusform>
        </translation>
    </message>
    <message>
        <source>All groups</source>
        <translation>所有组</translation>
    </message>
    <message>
        <source>%1 (group %2)</source>
        <translation>%1（组 %2）</translation>
    </message>
    <message>
        <source>All ops (-total)</source>
        <translation>所有算子（-total）</translation>
    </message>
    <message>
        <source>%1 (-total)</source>
        <translation>%1（-total）</translation>
    </message>
    <message>
        <source>Step %1: no link of this group and op.</source>
        <translation>步骤 %1：该组和算子没有链路。</translation>
    </message>
    <message>
        <source>Communication Ops</source>
        <translation>通信算子</translation>
    </message>
    <message>
        <source>Mean step breakdown per rank</source>
        <translation>各 Rank 的每步平均时间分解</translation>
    </message>
    <message>
        <source>Peak reserved, any component (MB)</source>
        <translation>预留内存峰值，任一组件 (MB)</translation>
    </message>
    <message>
        <source>Time (ms)</source>
        <translation>时间 (ms)</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>迭代</translation>
    </message>
    <message>
        <source>Source rank</source>
        <translation>源 Rank</translation>
    </message>
    <message>
        <source>Destination rank</source>
        <translation>目的 Rank</translation>
    </message>
    <message>
        <source>Step %1: each cell is the bandwidth in GB/s from the source rank (row) to the destination rank (column); its colour runs from dark purple (the slowest link) to yellow (the fastest), as the scale below shows. Click a cell to open both ranks at the op.</source>
        <translation>步骤 %1：每个单元格是从源 Rank（行）到目的 Rank（列）的带宽，单位 GB/s；颜色从深紫（最慢的链路）到黄色（最快的链路），见下方色标。单击单元格可在该算子处打开这两个 Rank。</translation>
    </message>
    <message>
        <source>Strategy</source>
        <translation>并行策略</translation>
    </message>
    <message>
        <source>Mean step: the %1 slowest of %2 ranks</source>
        <translation>每步平均：%2 个 Rank 中最慢的 %1 个</translation>
    </message>
    <message>
        <source>Rank (slowest %1, median, fastest)</source>
        <translation>Rank（最慢的 %1 个、中位数、最快）</translation>
    </message>
    <message>
        <source>Host or Device Bound?</source>
        <translation>Host 还是 Device 瓶颈？</translation>
    </message>
    <message>
        <source>Load the timelines of the ranks of the longest communication ops whose fast and slow rank differ by more than 5 %, and say whether the slow rank&apos;s host launched the op late or its device was busy (shown in Findings)</source>
        <translation>加载快慢 rank 相差超过 5 % 的最长通信算子所涉及 rank 的时间线，判断慢 rank 是 Host 下发晚还是设备忙（结果显示在“发现”中）</translation>
    </message>
    <message>
        <source>Pipeline</source>
        <translation>流水线</translation>
    </message>
    <message>
        <source>MoE Load</source>
        <translation>MoE 负载</translation>
    </message>
</context>
<context>
    <name>at::CollectionPanel</name>
    <message>
        <source>Item</source>
        <translation>项</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Trace file</source>
        <translation>跟踪文件</translation>
    </message>
    <message>
        <source>Path</source>
        <translation>路径</translation>
    </message>
    <message>
        <source>Timeline file</source>
        <translation>时间线文件</translation>
    </message>
    <message>
        <source>Kernel table</source>
        <translation>算子表</translation>
    </message>
    <message>
        <source>AI Core metric group</source>
        <translation>AI Core 指标组</translation>
    </message>
    <message>
        <source>none collected</source>
        <translation>未采集</translation>
    </message>
    <message>
        <source>Profiler level</source>
        <translation>采集等级</translation>
    </message>
    <message>
        <source>Switches on</source>
        <translation>已开启的开关</translation>
    </message>
    <message>
        <source>Switches off</source>
        <translation>已关闭的开关</translation>
    </message>
    <message>
        <source>Warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>Configuration file</source>
        <translation>配置文件</translation>
    </message>
</context>
<context>
    <name>at::ColorRulesDialog</name>
    <message>
        <source>Colour Rules</source>
        <translation>颜色规则</translation>
    </message>
    <message>
        <source>Slice name (regular expression)</source>
        <translation>切片名称（正则表达式）</translation>
    </message>
    <message>
        <source>Colour</source>
        <translation>颜色</translation>
    </message>
    <message>
        <source>Add Rule</source>
        <translation>添加规则</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>应用</translation>
    </message>
    <message>
        <source>Slices whose name matches a rule get its colour (first match wins); double-click a colour to change it.</source>
        <translation>名称匹配某条规则的切片使用该规则的颜色（以第一条匹配的规则为准）；双击颜色可修改。</translation>
    </message>
    <message>
        <source>Not a valid regular expression: %1</source>
        <translation>无效的正则表达式：%1</translation>
    </message>
</context>
<context>
    <name>at::CommunicationTable</name>
    <message>
        <source>(no step)</source>
        <translation>（无步骤）</translation>
    </message>
    <message>
        <source>all (p2p)</source>
        <translation>全部（p2p）</translation>
    </message>
    <message>
        <source>all (collective)</source>
        <translation>全部（集合通信）</translation>
    </message>
    <message>
        <source>&amp;Step:</source>
        <translation>步骤(&amp;S)：</translation>
    </message>
    <message>
        <source>&amp;Group:</source>
        <translation>通信组(&amp;G)：</translation>
    </message>
    <message>
        <source>&amp;Op:</source>
        <translation>算子(&amp;O)：</translation>
    </message>
    <message>
        <source>Include &amp;Total Op Info</source>
        <translation>包含 Total Op Info 汇总(&amp;T)</translation>
    </message>
    <message>
        <source>Also list each rank&apos;s &quot;Total Op Info&quot; entries (its sums per step, collective and p2p)</source>
        <translation>同时列出每个 Rank 的“Total Op Info”条目（按步骤分别汇总集合通信和 p2p）</translation>
    </message>
    <message>
        <source>One row per op and rank. Double-click a row or press Enter to open that rank&apos;s timeline at the op</source>
        <translation>每个算子和 Rank 一行。双击某行或按 Enter，在该算子处打开该 Rank 的时间线</translation>
    </message>
    <message>
        <source>Count</source>
        <translation>个数</translation>
    </message>
    <message>
        <source>The selected row&apos;s packets by size, over its transports (SDMA repeats HCCS, PCIE and SIO and is left out)</source>
        <translation>所选行按大小统计的数据包，合并各传输类型（SDMA 重复了 HCCS、PCIE 和 SIO，因此不计入）</translation>
    </message>
    <message>
        <source>All steps</source>
        <translation>所有步骤</translation>
    </message>
    <message>
        <source>All groups</source>
        <translation>所有通信组</translation>
    </message>
    <message>
        <source>%1 (group %2)</source>
        <translation>%1（通信组 %2）</translation>
    </message>
    <message>
        <source>All ops</source>
        <translation>所有算子</translation>
    </message>
    <message>
        <source>No communication op (communication.json or analysis.db) for this choice.</source>
        <translation>此选择下没有通信算子（communication.json 或 analysis.db）。</translation>
    </message>
    <message>
        <source>Select a row for its op across the ranks and its packet sizes.</source>
        <translation>选择一行，查看该算子在各 Rank 上的情况及其包大小分布。</translation>
    </message>
    <message>
        <source>Step %1, group %2, rank %3.</source>
        <translation>步骤 %1，通信组 %2，Rank %3。</translation>
    </message>
    <message>
        <source>No packet-size distribution for this row.</source>
        <translation>此行没有包大小分布。</translation>
    </message>
    <message>
        <source>Packet size</source>
        <translation>包大小</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message numerus="yes">
        <source>On %n rank(s): slowest rank %1 (%2), fastest rank %3 (%4), spread %5.</source>
        <translation>
            <numerusform>在 %n 个 Rank 上：最慢 Rank %1（%2），最快 Rank %3（%4），相差 %5。</numerusform>
        </translation>
    </message>
    <message>
        <source>Longest wait: rank %1 (%2).</source>
        <translation>等待最长：Rank %1（%2）。</translation>
    </message>
</context>
<context>
    <name>at::CommunicationTableModel</name>
    <message>
        <source>Group %1</source>
        <translation>通信组 %1</translation>
    </message>
    <message>
        <source>Double-click or press Enter to open rank %1 at this op</source>
        <translation>双击或按 Enter 在此算子处打开 Rank %1</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步骤</translation>
    </message>
    <message>
        <source>Op</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>Group</source>
        <translation>通信组</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>Rank</translation>
    </message>
    <message>
        <source>Elapse (ms)</source>
        <translation>耗时 (ms)</translation>
    </message>
    <message>
        <source>Transit (ms)</source>
        <translation>传输 (ms)</translation>
    </message>
    <message>
        <source>Wait (ms)</source>
        <translation>等待 (ms)</translation>
    </message>
    <message>
        <source>Synchronization (ms)</source>
        <translation>同步 (ms)</translation>
    </message>
    <message>
        <source>Idle (ms)</source>
        <translation>空闲 (ms)</translation>
    </message>
    <message>
        <source>Wait Ratio</source>
        <translation>等待比例</translation>
    </message>
    <message>
        <source>Synchronization Ratio</source>
        <translation>同步比例</translation>
    </message>
    <message>
        <source>%1 Size (MB)</source>
        <translation>%1 数据量 (MB)</translation>
    </message>
    <message>
        <source>%1 (GB/s)</source>
        <translation>%1 (GB/s)</translation>
    </message>
    <message>
        <source>%1: %2 in %3, %4</source>
        <extracomment>%1 transport, %2 size, %3 time, %4 bandwidth (each with its unit)</extracomment>
        <translation>%1：%2，用时 %3，%4</translation>
    </message>
    <message>
        <source>Elapse</source>
        <translation>耗时</translation>
    </message>
    <message>
        <source>Transit</source>
        <translation>传输</translation>
    </message>
    <message>
        <source>Wait</source>
        <translation>等待</translation>
    </message>
    <message>
        <source>Synchronization</source>
        <translation>同步</translation>
    </message>
    <message>
        <source>Idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>%1 Size</source>
        <translation>%1 数据量</translation>
    </message>
    <message>
        <source>%1 Bandwidth</source>
        <translation>%1 带宽</translation>
    </message>
</context>
<context>
    <name>at::CompareLauncher</name>
    <message>
        <source>Bundled sample</source>
        <translation>内置示例</translation>
    </message>
    <message>
        <source>Comparing needs steps: this profile has none.</source>
        <translation>比较需要迭代：此性能数据没有迭代。</translation>
    </message>
    <message>
        <source>Another Run…</source>
        <translation>另一次运行…</translation>
    </message>
    <message>
        <source>Compare with a step of a run that is not open: a trace file or a profiling result folder</source>
        <translation>与未打开的运行中的某个迭代比较：跟踪文件或性能数据结果文件夹</translation>
    </message>
    <message>
        <source>Compare against another run</source>
        <translation>与另一次运行比较</translation>
    </message>
    <message>
        <source>%1 has no steps to compare with.</source>
        <translation>%1 没有可比较的迭代。</translation>
    </message>
</context>
<context>
    <name>at::CompareStepsDialog</name>
    <message>
        <source>Match kernels by name and input shapes</source>
        <translation>按名称和输入形状匹配算子</translation>
    </message>
    <message>
        <source>Compare Steps</source>
        <translation>比较迭代</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>比较</translation>
    </message>
    <message>
        <source>Base step:</source>
        <translation>基准迭代：</translation>
    </message>
    <message>
        <source>Comparison step:</source>
        <translation>对比迭代：</translation>
    </message>
    <message>
        <source>Diff by Framework Op</source>
        <translation>按框架算子对比</translation>
    </message>
    <message>
        <source>Match ops by name and input shapes</source>
        <translation>按名称和输入形状匹配算子</translation>
    </message>
    <message>
        <source>Diff</source>
        <translation>对比</translation>
    </message>
</context>
<context>
    <name>at::CompareWindow</name>
    <message>
        <source>Compare %1 with %2 — Ascend Timeline</source>
        <translation>比较 %1 与 %2 — Ascend Timeline</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>Export diff</source>
        <translation>导出差异</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
</context>
<context>
    <name>at::ComparisonTableModel</name>
    <message>
        <source>Δ mean %1</source>
        <translation>Δ 平均 %1</translation>
    </message>
    <message>
        <source>Δ %1</source>
        <translation>Δ %1</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>base only</source>
        <translation>仅基准</translation>
    </message>
    <message>
        <source>comparison only</source>
        <translation>仅对比</translation>
    </message>
</context>
<context>
    <name>at::DetailsPanel</name>
    <message>
        <source>n/a</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Field</source>
        <translation>字段</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>%1 (the profiler&apos;s &quot;no value&quot; marker)</source>
        <translation>%1（profiler 的 &quot;无值&quot; 标记）</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Category</source>
        <translation>类别</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>Start (absolute µs)</source>
        <translation>开始（绝对时间，µs）</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>耗时</translation>
    </message>
    <message>
        <source>Self time</source>
        <translation>自身耗时</translation>
    </message>
    <message>
        <source>Depth</source>
        <translation>深度</translation>
    </message>
    <message>
        <source>Process</source>
        <translation>进程</translation>
    </message>
    <message>
        <source>Thread</source>
        <translation>线程</translation>
    </message>
    <message>
        <source>Args</source>
        <translation>参数</translation>
    </message>
    <message numerus="yes">
        <source>%n value(s)</source>
        <translation>
            <numerusform>%n 个值</numerusform>
        </translation>
    </message>
    <message>
        <source>Outgoing flows</source>
        <translation>出向连线</translation>
    </message>
    <message>
        <source>Incoming flows</source>
        <translation>入向连线</translation>
    </message>
    <message>
        <source>Kernel</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>Accelerator core</source>
        <translation>加速器核</translation>
    </message>
    <message>
        <source>Wait time</source>
        <translation>等待时间</translation>
    </message>
    <message>
        <source>Block dim</source>
        <translation>Block Dim</translation>
    </message>
    <message>
        <source>Input shapes</source>
        <translation>输入形状</translation>
    </message>
    <message>
        <source>Input data types</source>
        <translation>输入数据类型</translation>
    </message>
    <message>
        <source>not collected</source>
        <translation>未采集</translation>
    </message>
    <message>
        <source>AI Core metrics</source>
        <translation>AI Core 指标</translation>
    </message>
    <message>
        <source>(unbound)</source>
        <translation>（未连接）</translation>
    </message>
    <message>
        <source>id %1</source>
        <translation>id %1</translation>
    </message>
    <message>
        <source>Click to jump</source>
        <translation>单击跳转</translation>
    </message>
</context>
<context>
    <name>at::InsightsPanel</name>
    <message>
        <source>Show all</source>
        <translation>全部显示</translation>
    </message>
    <message>
        <source>Finding / occurrence</source>
        <translation>问题 / 出现位置</translation>
    </message>
    <message>
        <source>Severity / rank</source>
        <translation>严重程度 / rank</translation>
    </message>
    <message>
        <source>Highlight every occurrence of the finding on the timeline</source>
        <translation>在时间线上高亮该问题的所有出现位置</translation>
    </message>
    <message>
        <source>Open a profile to check it for performance problems.</source>
        <translation>打开性能数据以检查性能问题。</translation>
    </message>
    <message>
        <source>Checking the profile for performance problems…</source>
        <translation>正在检查性能问题…</translation>
    </message>
    <message numerus="yes">
        <source>No performance problems found by the %n check(s).</source>
        <translation>
            <numerusform>%n 项检查均未发现性能问题。</numerusform>
        </translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation>rank %1</translation>
    </message>
    <message>
        <source>at %1</source>
        <translation>位于 %1</translation>
    </message>
    <message>
        <source>Fix:</source>
        <translation>解决方法：</translation>
    </message>
    <message numerus="yes">
        <source>Check: %1 · %n occurrence(s)</source>
        <translation>
            <numerusform>检查项：%1 · %n 处</numerusform>
        </translation>
    </message>
    <message>
        <source>Time at stake / duration</source>
        <translation>涉及时间 / 时长</translation>
    </message>
    <message>
        <source>% of step / start</source>
        <translation>占迭代 % / 开始</translation>
    </message>
    <message numerus="yes">
        <source>%n finding(s), ranked by the time they explain.</source>
        <translation>
            <numerusform>%n 条发现，按其解释的时间排序。</numerusform>
        </translation>
    </message>
    <message>
        <source>This check counts occurrences; it measures no time.</source>
        <translation>此检查统计出现次数，不度量时间。</translation>
    </message>
</context>
<context>
    <name>at::KernelColorChooser</name>
    <message>
        <source>by name</source>
        <translation>按名称</translation>
    </message>
    <message>
        <source>by duration percentile</source>
        <translation>按耗时百分位</translation>
    </message>
    <message>
        <source>by %1</source>
        <translation>按 %1</translation>
    </message>
    <message>
        <source>Colour device kernels by name, by duration percentile, or by an AI Core metric</source>
        <translation>按名称、耗时百分位或 AI Core 指标为设备算子着色</translation>
    </message>
</context>
<context>
    <name>at::KernelGroupModel</name>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Input shapes</source>
        <translation>输入形状</translation>
    </message>
    <message>
        <source>Count</source>
        <translation>次数</translation>
    </message>
    <message>
        <source>Total</source>
        <translation>总计</translation>
    </message>
    <message>
        <source>Average</source>
        <translation>平均</translation>
    </message>
    <message>
        <source>Min</source>
        <translation>最小</translation>
    </message>
    <message>
        <source>Max</source>
        <translation>最大</translation>
    </message>
</context>
<context>
    <name>at::KernelTableModel</name>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Core</source>
        <translation>核类型</translation>
    </message>
    <message>
        <source>Stream</source>
        <translation>流</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>耗时</translation>
    </message>
    <message>
        <source>Wait</source>
        <translation>等待</translation>
    </message>
    <message>
        <source>Block dim</source>
        <translation>Block Dim</translation>
    </message>
    <message>
        <source>Input shapes</source>
        <translation>输入形状</translation>
    </message>
    <message>
        <source>Input types</source>
        <translation>输入类型</translation>
    </message>
    <message>
        <source>Bound</source>
        <translation>瓶颈</translation>
    </message>
    <message>
        <source>Joined</source>
        <translation>已关联</translation>
    </message>
</context>
<context>
    <name>at::KernelTablePanel</name>
    <message>
        <source>Regex</source>
        <translation>正则</translation>
    </message>
    <message>
        <source>In time selection</source>
        <translation>仅限所选时间区间</translation>
    </message>
    <message>
        <source>Filter by name</source>
        <translation>按名称筛选</translation>
    </message>
    <message>
        <source>min dur</source>
        <translation>最小耗时</translation>
    </message>
    <message>
        <source>max dur</source>
        <translation>最大耗时</translation>
    </message>
    <message>
        <source>No grouping</source>
        <translation>不分组</translation>
    </message>
    <message>
        <source>Group by name</source>
        <translation>按名称分组</translation>
    </message>
    <message>
        <source>Group by name + input shape</source>
        <translation>按名称 + 输入形状分组</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <source>Export kernels</source>
        <translation>导出算子</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>Any core</source>
        <translation>任意核类型</translation>
    </message>
    <message>
        <source>Any bound</source>
        <translation>任意瓶颈类型</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>No kernel table (kernel_details.csv / op_summary_*.csv) in this profile.</source>
        <translation>此性能数据中没有算子表（kernel_details.csv / op_summary_*.csv）。</translation>
    </message>
    <message>
        <source>%1 shown of </source>
        <translation>已显示 %1，共 </translation>
    </message>
    <message>
        <source>%1%2 kernels, %3 not joined to the timeline · AI Core metrics: %4</source>
        <translation>%1%2 个算子，其中 %3 个未关联到时间线 · AI Core 指标：%4</translation>
    </message>
    <message>
        <source>none collected</source>
        <translation>未采集</translation>
    </message>
</context>
<context>
    <name>at::LoadProgress</name>
    <message>
        <source>Loading %1… %2 of %3 MB</source>
        <translation>正在加载 %1… %2 / %3 MB</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>%p% read</source>
        <translation>已读取 %p%</translation>
    </message>
</context>
<context>
    <name>at::MainWindow</name>
    <message>
        <source>Ascend Timeline</source>
        <translation>Ascend Timeline</translation>
    </message>
    <message>
        <source>View</source>
        <translation>视图</translation>
    </message>
    <message>
        <source> Colour kernels: </source>
        <translation> 算子着色： </translation>
    </message>
    <message>
        <source>Ascend Timeline view of %1</source>
        <translation>%1 的 Ascend Timeline 视图</translation>
    </message>
    <message>
        <source>Open trace</source>
        <translation>打开跟踪文件</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>Could not open the session %1</source>
        <translation>无法打开会话 %1</translation>
    </message>
    <message>
        <source>Loading %1…</source>
        <translation>正在加载 %1…</translation>
    </message>
    <message>
        <source>Loading of %1 cancelled</source>
        <translation>已取消加载 %1</translation>
    </message>
    <message>
        <source>Showing %1</source>
        <translation>正在显示 %1</translation>
    </message>
    <message>
        <source>unknown error</source>
        <translation>未知错误</translation>
    </message>
    <message>
        <source>Could not open %1</source>
        <translation>无法打开 %1</translation>
    </message>
    <message>
        <source>%1 — Ascend Timeline</source>
        <translation>%1 — Ascend Timeline</translation>
    </message>
    <message>
        <source>Bundled sample</source>
        <translation>内置示例</translation>
    </message>
    <message>
        <source>%1: %2 events, %3 slices, %4 flows, span %5</source>
        <translation>%1：%2 个事件，%3 个切片，%4 条连线，时间跨度 %5</translation>
    </message>
    <message>
        <source>Bundled sample (AlexNet, 1 step, rank 0)</source>
        <translation>内置示例（AlexNet，1 个迭代，rank 0）</translation>
    </message>
    <message numerus="yes">
        <source>Opened with %n warning(s): %1</source>
        <translation>
            <numerusform>已打开，有 %n 条警告：%1</numerusform>
        </translation>
    </message>
    <message>
        <source>This result has only one export (no database beside the text export, or the other way round).</source>
        <translation>此结果只有一种导出格式（只有文本导出而没有数据库，或反之）。</translation>
    </message>
    <message>
        <source>This result has no raw data (PROF_*/host|device_N/data), or it is already decoded from it.</source>
        <translation>此结果没有原始数据（PROF_*/host|device_N/data），或当前数据已是从原始数据解析得到的。</translation>
    </message>
    <message>
        <source>Ascend Timeline %1: a fast timeline viewer for Ascend NPU profiling data.</source>
        <translation>Ascend Timeline %1：快速的 Ascend NPU 性能数据时间线查看工具。</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>Open trace in a new window</source>
        <translation>在新窗口中打开跟踪文件</translation>
    </message>
    <message>
        <source>Select a slice or drag a range first, then press m</source>
        <translation>请先选择切片或拖选区间，再按 m</translation>
    </message>
    <message>
        <source>No later step</source>
        <translation>没有后续迭代</translation>
    </message>
    <message>
        <source>No earlier step</source>
        <translation>没有更早的迭代</translation>
    </message>
    <message numerus="yes">
        <source>Loading %n rank(s) of %1…</source>
        <translation>
            <numerusform>正在加载 %1 的 %n 个 Rank…</numerusform>
        </translation>
    </message>
    <message>
        <source>No prepared cache folder: the following loads use the usual snapshot cache.</source>
        <translation>未设置预处理缓存文件夹：之后的加载使用常规快照缓存。</translation>
    </message>
    <message>
        <source>Prepared cache folder %1 kept for the next start; this window keeps the command line&apos;s choice.</source>
        <translation>预处理缓存文件夹 %1 已保存，下次启动时使用；本窗口沿用命令行的选择。</translation>
    </message>
    <message>
        <source>The following loads use the prepared cache folder %1 (ranks prepared there open without parsing).</source>
        <translation>之后的加载使用预处理缓存文件夹 %1（在其中预处理过的 Rank 无需解析即可打开）。</translation>
    </message>
    <message>
        <source>◂ Overview</source>
        <translation>◂ 概览</translation>
    </message>
    <message>
        <source>Back to the Overview: where each step&apos;s time went (View ▸ Overview)</source>
        <translation>回到概览：每一步的时间花在哪里（视图 ▸ 概览）</translation>
    </message>
</context>
<context>
    <name>at::MarkerList</name>
    <message>
        <source>Flag %1</source>
        <translation>旗标 %1</translation>
    </message>
    <message>
        <source>Range %1</source>
        <translation>区间 %1</translation>
    </message>
</context>
<context>
    <name>at::MarkersPanel</name>
    <message>
        <source>Colour</source>
        <translation>颜色</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Marker</source>
        <translation>标记</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>Length</source>
        <translation>长度</translation>
    </message>
    <message>
        <source>Next colour for the selected marker</source>
        <translation>为所选标记换用下一种颜色</translation>
    </message>
    <message>
        <source>m marks the selected slice or range, k drops a flag at the mouse. Double-click a name to rename.</source>
        <translation>按 m 标记所选切片或区间，按 k 在鼠标处放置旗标。双击名称可重命名。</translation>
    </message>
    <message>
        <source>flag</source>
        <translation>旗标</translation>
    </message>
</context>
<context>
    <name>at::MemoryAllocationModel</name>
    <message>
        <source>Operator</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>Stream</source>
        <translation>流</translation>
    </message>
    <message>
        <source>Not released inside the profiled window</source>
        <translation>在采集时间窗内未释放</translation>
    </message>
    <message>
        <source>(release only)</source>
        <translation>（仅释放）</translation>
    </message>
    <message>
        <source>not released</source>
        <translation>未释放</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Allocated at</source>
        <translation>分配时间</translation>
    </message>
    <message>
        <source>Released at</source>
        <translation>释放时间</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>持续时间</translation>
    </message>
    <message>
        <source>Active duration</source>
        <translation>活跃持续时间</translation>
    </message>
    <message>
        <source>Allocated then</source>
        <translation>分配时已分配</translation>
    </message>
    <message>
        <source>Reserved then</source>
        <translation>分配时已预留</translation>
    </message>
    <message>
        <source>Allocated at release</source>
        <translation>释放时已分配</translation>
    </message>
    <message>
        <source>Reserved at release</source>
        <translation>释放时已预留</translation>
    </message>
</context>
<context>
    <name>at::MemoryPanel</name>
    <message>
        <source>Device:</source>
        <translation>设备：</translation>
    </message>
    <message>
        <source>Operator</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>Filter operators</source>
        <translation>筛选算子</translation>
    </message>
    <message>
        <source>NPU %1</source>
        <translation>NPU %1</translation>
    </message>
    <message>
        <source>unknown device</source>
        <translation>未知设备</translation>
    </message>
    <message>
        <source>No memory data: profile with profile_memory=True (memory_record.csv, operator_memory.csv, MEMORY_RECORD, OP_MEMORY).</source>
        <translation>无内存数据：请使用 profile_memory=True 采集（memory_record.csv、operator_memory.csv、MEMORY_RECORD、OP_MEMORY）。</translation>
    </message>
    <message>
        <source>Time (ms)</source>
        <translation>时间 (ms)</translation>
    </message>
    <message>
        <source>Memory (MB)</source>
        <translation>内存 (MB)</translation>
    </message>
    <message>
        <source>Peaks</source>
        <translation>峰值</translation>
    </message>
    <message>
        <source>%1 allocated</source>
        <extracomment>A chart series: &quot;PTA+GE allocated&quot;, &quot;APP reserved&quot;</extracomment>
        <translation>%1 已分配</translation>
    </message>
    <message>
        <source>%1 reserved</source>
        <translation>%1 已预留</translation>
    </message>
    <message>
        <source>not released</source>
        <translation>未释放</translation>
    </message>
    <message>
        <source>No operator curve (PTA+GE, PTA or GE) on this device: no peak to inspect.</source>
        <translation>此设备没有算子内存曲线（PTA+GE、PTA 或 GE）：无峰值可查看。</translation>
    </message>
    <message numerus="yes">
        <source>Live at the %1 peak: %2 at %3 ms, %n allocation(s), largest first</source>
        <translation>
            <numerusform>%1 峰值时存活的分配：%2，位于 %3 ms，共 %n 个，按大小降序</numerusform>
        </translation>
    </message>
    <message>
        <source>Live at peak</source>
        <translation>峰值时存活</translation>
    </message>
    <message>
        <source>All allocations</source>
        <translation>全部分配</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Allocated at</source>
        <translation>分配时间</translation>
    </message>
    <message>
        <source>Lifetime</source>
        <translation>生命周期</translation>
    </message>
    <message>
        <source>%1 · %2 · %3</source>
        <extracomment>The label of an allocation&apos;s lifetime on the timeline: &quot;aten::mm · 144.00 MB · 10.923 ms&quot;</extracomment>
        <translation>%1 · %2 · %3</translation>
    </message>
    <message>
        <source>%1 · %2 · not released (%3 to the end)</source>
        <extracomment>The same for an allocation held to the end of the profile: &quot;… · not released (2.5 ms to the end)&quot;</extracomment>
        <translation>%1 · %2 · 未释放（距结束 %3）</translation>
    </message>
</context>
<context>
    <name>at::MessageBar</name>
    <message>
        <source>Dismiss</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>List every message of this load</source>
        <translation>列出本次加载的所有消息</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Copy every message to the clipboard</source>
        <translation>将所有消息复制到剪贴板</translation>
    </message>
    <message>
        <source>Hide</source>
        <translation>隐藏</translation>
    </message>
    <message numerus="yes">
        <source>Show all %n</source>
        <translation>
            <numerusform>显示全部 %n 条</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>at::MoeLoadView</name>
    <message>
        <source>(no step)</source>
        <translation>（无步）</translation>
    </message>
    <message>
        <source>Double-click a row to open its most and least loaded ranks on one timeline</source>
        <translation>双击一行，在同一时间线上打开其负载最高和最低的 rank</translation>
    </message>
    <message>
        <source>No cluster open.</source>
        <translation>未打开集群。</translation>
    </message>
    <message>
        <source>No MoE load to show: %1.</source>
        <translation>没有可显示的 MoE 负载：%1。</translation>
    </message>
    <message numerus="yes">
        <source>Tokens routed to each rank&apos;s experts per step (first input dimension of its GroupedMatmul kernels, summed), %n expert-parallel group(s); %1 step(s) above %2 × the group&apos;s mean.</source>
        <translation>
            <numerusform>每步路由到各 rank 专家的 token 数（其 GroupedMatmul 算子第一个输入的第一维之和），%n 个专家并行组；%1 个步超过组平均值的 %2 倍。</numerusform>
        </translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>Rank</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步</translation>
    </message>
    <message>
        <source>tokens</source>
        <translation>token</translation>
    </message>
    <message>
        <source>EP group</source>
        <translation>EP 组</translation>
    </message>
    <message>
        <source>Most loaded rank (tokens)</source>
        <translation>负载最高的 rank（token 数）</translation>
    </message>
    <message>
        <source>Least loaded rank (tokens)</source>
        <translation>负载最低的 rank（token 数）</translation>
    </message>
    <message>
        <source>Max / min</source>
        <translation>最大 / 最小</translation>
    </message>
    <message>
        <source>Max / mean</source>
        <translation>最大 / 平均</translation>
    </message>
    <message>
        <source>Coefficient of variation</source>
        <translation>变异系数</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>Above %1 × the mean: a finding</source>
        <translation>超过平均值的 %1 倍：产生一条发现</translation>
    </message>
</context>
<context>
    <name>at::OpDiffCurve</name>
    <message>
        <source>Base time from step start</source>
        <translation>基准迭代中的时间（从迭代开始计）</translation>
    </message>
    <message>
        <source>Accumulated delta</source>
        <translation>累计差值</translation>
    </message>
    <message>
        <source>Accumulated delta (comparison − base) over the base step: above zero, the comparison is behind by that much</source>
        <translation>基准迭代上的累计差值（对比 − 基准）：高于零表示对比落后该时长</translation>
    </message>
    <message>
        <source>No matched ops</source>
        <translation>没有匹配的算子</translation>
    </message>
</context>
<context>
    <name>at::OpDiffTableModel</name>
    <message>
        <source>%1 ×%2</source>
        <translation>%1 ×%2</translation>
    </message>
    <message>
        <source>+%1 more</source>
        <extracomment>The end of a kernels cell: &quot;+3 more&quot; kernel names</extracomment>
        <translation>另有 %1 个</translation>
    </message>
    <message>
        <source>Ops of one side only (see Unmatched)</source>
        <translation>仅一侧存在的算子（见“未匹配”）</translation>
    </message>
    <message>
        <source>Not launched by an op: computing</source>
        <translation>非算子下发：计算</translation>
    </message>
    <message>
        <source>Not launched by an op: communication</source>
        <translation>非算子下发：通信</translation>
    </message>
    <message>
        <source>Not launched by an op: memcpy/memset</source>
        <translation>非算子下发：memcpy/memset</translation>
    </message>
    <message>
        <source>Not launched by an op: other device work</source>
        <translation>非算子下发：其他设备任务</translation>
    </message>
    <message>
        <source>Idle (no device work)</source>
        <translation>空闲（无设备任务）</translation>
    </message>
    <message>
        <source>Overlapping device work (counted once)</source>
        <translation>重叠的设备任务（只计一次）</translation>
    </message>
    <message>
        <source>(no module)</source>
        <translation>（无模块）</translation>
    </message>
    <message numerus="yes">
        <source>%n op(s)</source>
        <extracomment>A group row of the op diff: how many matched ops it totals</extracomment>
        <translation>
            <numerusform>%n 个算子</numerusform>
        </translation>
    </message>
    <message>
        <source>Op name</source>
        <translation>算子名</translation>
    </message>
    <message>
        <source>Module</source>
        <translation>模块</translation>
    </message>
    <message>
        <source>Op</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>Call path</source>
        <translation>调用路径</translation>
    </message>
    <message>
        <source>Ops</source>
        <translation>算子数</translation>
    </message>
    <message>
        <source>Input shapes</source>
        <translation>输入形状</translation>
    </message>
    <message>
        <source>Base count</source>
        <translation>基准次数</translation>
    </message>
    <message>
        <source>Comparison count</source>
        <translation>对比次数</translation>
    </message>
    <message>
        <source>Base device</source>
        <translation>基准设备时间</translation>
    </message>
    <message>
        <source>Comparison device</source>
        <translation>对比设备时间</translation>
    </message>
    <message>
        <source>Delta</source>
        <translation>差值</translation>
    </message>
    <message>
        <source>Ratio</source>
        <translation>比值</translation>
    </message>
    <message>
        <source>Base host</source>
        <translation>基准主机时间</translation>
    </message>
    <message>
        <source>Comparison host</source>
        <translation>对比主机时间</translation>
    </message>
    <message>
        <source>Base kernels</source>
        <translation>基准 kernel</translation>
    </message>
    <message>
        <source>Comparison kernels</source>
        <translation>对比 kernel</translation>
    </message>
</context>
<context>
    <name>at::OpDiffUnmatchedModel</name>
    <message>
        <source>Only in comparison</source>
        <translation>仅在对比中</translation>
    </message>
    <message>
        <source>Only in base</source>
        <translation>仅在基准中</translation>
    </message>
    <message>
        <source>Side</source>
        <translation>所在侧</translation>
    </message>
    <message>
        <source>Op</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>Call path</source>
        <translation>调用路径</translation>
    </message>
    <message>
        <source>Input shapes</source>
        <translation>输入形状</translation>
    </message>
    <message>
        <source>Host</source>
        <translation>主机时间</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备时间</translation>
    </message>
</context>
<context>
    <name>at::OpDiffView</name>
    <message>
        <source>&amp;Filter:</source>
        <translation>筛选(&amp;F)：</translation>
    </message>
    <message>
        <source>op name, call path, module, shapes or kernel</source>
        <translation>算子名、调用路径、模块、形状或 kernel</translation>
    </message>
    <message>
        <source>&amp;Group:</source>
        <translation>分组(&amp;G)：</translation>
    </message>
    <message>
        <source>Per op</source>
        <translation>逐算子</translation>
    </message>
    <message>
        <source>By op name</source>
        <translation>按算子名</translation>
    </message>
    <message>
        <source>By module</source>
        <translation>按模块</translation>
    </message>
    <message>
        <source>Ops</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>Unmatched (%1)</source>
        <extracomment>The tab of the ops of one side only, with their count</extracomment>
        <translation>未匹配（%1）</translation>
    </message>
    <message>
        <source>Computing the diff…</source>
        <translation>正在计算差异…</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>迭代</translation>
    </message>
    <message>
        <source>Computing</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>Communication</source>
        <translation>通信</translation>
    </message>
    <message>
        <source>Free</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>Ops: %1 matched, %2 only in base, %3 only in comparison</source>
        <extracomment>The op diff&apos;s match summary: &quot;Ops: 812 matched, 3 only in base, 0 only in comparison&quot;</extracomment>
        <translation>算子：%1 个已匹配，%2 个仅在基准中，%3 个仅在对比中</translation>
    </message>
    <message>
        <source>Ops that explain most of the difference:</source>
        <translation>最能解释差异的算子：</translation>
    </message>
</context>
<context>
    <name>at::OpDiffWindow</name>
    <message>
        <source>Diff by framework op: %1 → %2 — Ascend Timeline</source>
        <extracomment>The op diff window&apos;s title: &quot;Diff by framework op: &lt;base step&gt; → &lt;comparison step&gt;&quot;</extracomment>
        <translation>按框架算子对比：%1 → %2 — Ascend Timeline</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>Computing the diff by framework op…</source>
        <translation>正在按框架算子计算差异…</translation>
    </message>
    <message>
        <source>Alignment: %1 · computed in %2</source>
        <extracomment>The op diff&apos;s status bar: how the op levels were aligned (e.g. &quot;exact LCS on every level&quot;) and how long the diff took</extracomment>
        <translation>对齐方式：%1 · 用时 %2</translation>
    </message>
    <message>
        <source>Export op diff</source>
        <translation>导出算子差异</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
</context>
<context>
    <name>at::OverviewPage</name>
    <message>
        <source>Computing</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>Communication (not overlapped)</source>
        <translation>通信（未被掩盖）</translation>
    </message>
    <message>
        <source>Free</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>Preparing</source>
        <translation>准备</translation>
    </message>
    <message>
        <source>Bubble (receive)</source>
        <translation>气泡（接收）</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>Not attributed</source>
        <translation>未归因</translation>
    </message>
    <message>
        <source>Overview</source>
        <translation>概览</translation>
    </message>
    <message>
        <source>Timeline ▸</source>
        <translation>时间线 ▸</translation>
    </message>
    <message>
        <source>The timeline of this data (View ▸ Overview comes back here)</source>
        <translation>这份数据的时间线（视图 ▸ 概览 可回到此页）</translation>
    </message>
    <message>
        <source>Cluster ▸</source>
        <translation>集群 ▸</translation>
    </message>
    <message>
        <source>The cluster page: every rank&apos;s steps, the matrix and the slow ranks</source>
        <translation>集群页面：每个 rank 的各步、通信矩阵和慢 rank</translation>
    </message>
    <message>
        <source>Rank:</source>
        <translation>Rank：</translation>
    </message>
    <message>
        <source>Mean step per rank (click a rank: its steps below)</source>
        <translation>每个 rank 的平均步（单击 rank：在下方显示其各步）</translation>
    </message>
    <message>
        <source>What fills each part (mean step; click a row)</source>
        <translation>各部分由什么组成（平均步；单击一行）</translation>
    </message>
    <message>
        <source>Top findings (click: where it shows)</source>
        <translation>主要发现（单击：显示出现位置）</translation>
    </message>
    <message>
        <source>Memory peak</source>
        <translation>内存峰值</translation>
    </message>
    <message>
        <source>Collection warnings</source>
        <translation>采集警告</translation>
    </message>
    <message>
        <source>Part and what fills it</source>
        <translation>部分及其组成</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Share</source>
        <translation>占比</translation>
    </message>
    <message>
        <source>Count</source>
        <translation>次数</translation>
    </message>
    <message>
        <source>Finding</source>
        <translation>发现</translation>
    </message>
    <message>
        <source>Part</source>
        <translation>部分</translation>
    </message>
    <message>
        <source>Share of step</source>
        <translation>占步时间比例</translation>
    </message>
    <message>
        <source>No rank of this data has steps or device time to break down.</source>
        <translation>这份数据中没有可拆分的步或设备时间。</translation>
    </message>
    <message>
        <source>Computing the overview…</source>
        <translation>正在计算概览…</translation>
    </message>
    <message>
        <source>Open a trace, a profiling result or a cluster folder.</source>
        <translation>请打开跟踪文件、性能数据结果或集群文件夹。</translation>
    </message>
    <message numerus="yes">
        <source>%1 · %n step(s)</source>
        <translation>
            <numerusform>%1 · %n 步</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n rank(s) on one timeline</source>
        <translation>
            <numerusform>一条时间线上的 %n 个 rank</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Cluster of %n rank(s), from their summary files</source>
        <translation>
            <numerusform>%n 个 rank 的集群，来自其汇总文件</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Step time of %1: the first %2 of %n step(s) and the mean (click a bar: the step on the timeline)</source>
        <translation>
            <numerusform>%1 的步时间：%n 步中的前 %2 步及平均值（单击条形：在时间线上显示该步）</numerusform>
        </translation>
    </message>
    <message>
        <source>Step time of %1 (click a bar: the step on the timeline)</source>
        <translation>%1 的步时间（单击条形：在时间线上显示该步）</translation>
    </message>
    <message>
        <source>Step time of %1: no steps (%2)</source>
        <translation>%1 的步时间：没有步（%2）</translation>
    </message>
    <message>
        <source>nothing to break down</source>
        <translation>没有可拆分的内容</translation>
    </message>
    <message>
        <source>%1: share of the step</source>
        <translation>%1：占步时间的比例</translation>
    </message>
    <message>
        <source>By the rank waited for</source>
        <translation>按所等待的 rank</translation>
    </message>
    <message>
        <source>Top kernels (click: Kernels panel)</source>
        <translation>主要算子（单击：算子面板）</translation>
    </message>
    <message>
        <source>No finding for this rank</source>
        <translation>此 rank 没有发现</translation>
    </message>
    <message>
        <source>allocated</source>
        <translation>已分配</translation>
    </message>
    <message>
        <source>reserved</source>
        <translation>已预留</translation>
    </message>
    <message>
        <source>component %1, at %2 (from %3)</source>
        <translation>组件 %1，时间 %2（来自 %3）</translation>
    </message>
    <message>
        <source>component %1 (from %2)</source>
        <translation>组件 %1（来自 %2）</translation>
    </message>
    <message>
        <source>No memory data</source>
        <translation>没有内存数据</translation>
    </message>
    <message>
        <source>collect with profile_memory=True to see the peak and its component</source>
        <translation>使用 profile_memory=True 采集即可查看峰值及其所属组件</translation>
    </message>
    <message>
        <source>None: the collection reported no problem.</source>
        <translation>无：采集没有报告问题。</translation>
    </message>
</context>
<context>
    <name>at::PipelineView</name>
    <message>
        <source>Load Stage Timelines</source>
        <translation>加载各阶段时间线</translation>
    </message>
    <message>
        <source>stage %1: rank %2</source>
        <translation>阶段 %1：rank %2</translation>
    </message>
    <message>
        <source>No pipeline view: %1.</source>
        <translation>无法显示流水线视图：%1。</translation>
    </message>
    <message>
        <source>Loading the stage timelines (%1)…</source>
        <translation>正在加载各阶段时间线（%1）…</translation>
    </message>
    <message numerus="yes">
        <source>%n micro-batch(es); blocks from the pipeline send/receive ops and the gradient kernels (docs/CLUSTER.md). Hover a block for its times, click it to open the rank&apos;s timeline there.</source>
        <translation>
            <numerusform>%n 个微批次；块由流水线收发算子和梯度算子确定（docs/CLUSTER.md）。悬停在块上查看时间，单击在该 rank 的时间线中打开此处。</numerusform>
        </translation>
    </message>
    <message>
        <source>No pipeline view from the loaded timelines: %1.</source>
        <translation>无法从已加载的时间线生成流水线视图：%1。</translation>
    </message>
    <message>
        <source>The pipeline view reads one timeline per stage (%1). Load them to draw the forward and backward blocks and the bubbles.</source>
        <translation>流水线视图需要每个阶段的一条时间线（%1）。加载后即可绘制前向块、反向块和空泡。</translation>
    </message>
    <message>
        <source>Stage %1 · rank %2</source>
        <translation>阶段 %1 · rank %2</translation>
    </message>
    <message>
        <source>bubble %1 (%2)</source>
        <translation>空泡 %1（%2）</translation>
    </message>
    <message>
        <source>Forward</source>
        <translation>前向</translation>
    </message>
    <message>
        <source>Backward</source>
        <translation>反向</translation>
    </message>
    <message numerus="yes">
        <source>%1, micro-batch %2
Stage %3, rank %4
Start %5 after the pipeline&apos;s first block
Duration %6 (%n kernel(s))</source>
        <translation>
            <numerusform>%1，微批次 %2
阶段 %3，rank %4
开始于流水线首个块之后 %5
耗时 %6（%n 个算子）</numerusform>
        </translation>
    </message>
    <message>
        <source>Bubble: stage %1 idle for %2
Stage&apos;s bubbles in all: %3</source>
        <translation>空泡：阶段 %1 空闲 %2
该阶段空泡合计：%3</translation>
    </message>
    <message>
        <source>Forward (F)</source>
        <translation>前向 (F)</translation>
    </message>
    <message>
        <source>Backward (B)</source>
        <translation>反向 (B)</translation>
    </message>
    <message>
        <source>Bubble (stage idle)</source>
        <translation>空泡（阶段空闲）</translation>
    </message>
    <message>
        <source>Time from the pipeline&apos;s first block (%1)</source>
        <translation>自流水线首个块起的时间（%1）</translation>
    </message>
</context>
<context>
    <name>at::QueryChart</name>
    <message>
        <source>Run a query to chart its result</source>
        <translation>运行查询后即可绘制其结果</translation>
    </message>
    <message>
        <source>The result has no numeric column to chart</source>
        <translation>结果中没有可绘制的数值列</translation>
    </message>
    <message>
        <source>%1 has only NULL values</source>
        <translation>%1 只有 NULL 值</translation>
    </message>
    <message>
        <source>Rows</source>
        <translation>行数</translation>
    </message>
    <message>
        <source>%1 rows of %2 in %3 bins</source>
        <translation>%2 的 %1 行，分为 %3 个区间</translation>
    </message>
    <message>
        <source>The first %1 of %2 rows</source>
        <translation>%2 行中的前 %1 行</translation>
    </message>
    <message>
        <source>Histogram</source>
        <translation>直方图</translation>
    </message>
    <message>
        <source>Bar chart</source>
        <translation>柱状图</translation>
    </message>
    <message>
        <source>A histogram of one numeric column, or a bar per row (label × value)</source>
        <translation>某一数值列的直方图，或每行一根柱（标签 × 数值）</translation>
    </message>
    <message>
        <source>The numeric column to chart</source>
        <translation>要绘制的数值列</translation>
    </message>
    <message>
        <source>by</source>
        <translation>按</translation>
    </message>
    <message>
        <source>The column that labels the bars</source>
        <translation>用作柱标签的列</translation>
    </message>
</context>
<context>
    <name>at::QueryPanel</name>
    <message>
        <source>Save Query</source>
        <translation>保存查询</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>名称：</translation>
    </message>
    <message>
        <source>Nothing is open: open a profile or a cluster folder first</source>
        <translation>尚未打开任何数据：请先打开性能数据或集群文件夹</translation>
    </message>
    <message>
        <source>the last result</source>
        <translation>上一次的结果</translation>
    </message>
    <message>
        <source>Running…</source>
        <translation>正在运行…</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>Running… %1 rows, %2 s</source>
        <translation>正在运行… %1 行，%2 秒</translation>
    </message>
    <message>
        <source>Cancelled after %1 rows (%2 s)</source>
        <translation>已在 %1 行后取消（%2 秒）</translation>
    </message>
    <message>
        <source>Error at line %1, column %2: %3</source>
        <translation>第 %1 行第 %2 列出错：%3</translation>
    </message>
    <message>
        <source>Error: %1</source>
        <translation>错误：%1</translation>
    </message>
    <message>
        <source>%1 rows in %2 s; the table keeps the first %3, %4 rows were not kept</source>
        <translation>%1 行，用时 %2 秒；表格保留前 %3 行，另有 %4 行未保留</translation>
    </message>
    <message numerus="yes">
        <source>%n row(s) in %1 s</source>
        <translation>
            <numerusform>%n 行，用时 %1 秒</numerusform>
        </translation>
    </message>
    <message>
        <source>No row of this result is a slice of the timeline (it needs a slice_id or id column, or ts and dur)</source>
        <translation>结果中没有对应时间线切片的行（需要 slice_id 或 id 列，或 ts 和 dur 列）</translation>
    </message>
    <message>
        <source>%1 slices marked on the timeline</source>
        <translation>已在时间线上标记 %1 个切片</translation>
    </message>
    <message>
        <source>(the first %1 rows were looked up by ts and dur)</source>
        <translation>（前 %1 行按 ts 和 dur 查找）</translation>
    </message>
    <message>
        <source>Export Result as CSV</source>
        <translation>将结果导出为 CSV</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>Wrote %1 rows to %2</source>
        <translation>已将 %1 行写入 %2</translation>
    </message>
    <message>
        <source>Saved queries</source>
        <translation>已保存的查询</translation>
    </message>
    <message>
        <source>Query Slices Named Like This</source>
        <translation>查询与此同名的切片</translation>
    </message>
    <message>
        <source>-- every slice named like the one clicked: the histogram of its durations</source>
        <translation>-- 与所点切片同名的全部切片：其耗时的直方图</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Run the query (Ctrl+Enter)</source>
        <translation>运行查询（Ctrl+Enter）</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Stop the running query</source>
        <translation>停止正在运行的查询</translation>
    </message>
    <message>
        <source>Show on Timeline</source>
        <translation>在时间线上显示</translation>
    </message>
    <message>
        <source>Mark the slice of every row on the timeline (rows with slice_id or id, or ts and dur)</source>
        <translation>在时间线上标记每一行对应的切片（含 slice_id 或 id 列，或 ts 和 dur 列的行）</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <source>Write the result as a CSV file</source>
        <translation>将结果写入 CSV 文件</translation>
    </message>
    <message>
        <source>Save…</source>
        <translation>保存…</translation>
    </message>
    <message>
        <source>Save the query under a name (kept with the session)</source>
        <translation>以名称保存查询（随会话保存）</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Delete the chosen saved query</source>
        <translation>删除所选的已保存查询</translation>
    </message>
    <message>
        <source>Saved queries: choose one to put it into the editor</source>
        <translation>已保存的查询：选择一个即可放入编辑器</translation>
    </message>
    <message>
        <source>SQL over everything loaded (docs/QUERY.md). Ctrl+Enter runs, Ctrl+Space completes, Up and Down walk the history</source>
        <translation>对已加载的全部数据执行 SQL（docs/QUERY.md）。Ctrl+Enter 运行，Ctrl+Space 补全，上下方向键浏览历史</translation>
    </message>
    <message>
        <source>Table</source>
        <translation>表格</translation>
    </message>
    <message>
        <source>Chart</source>
        <translation>图表</translation>
    </message>
    <message>
        <source>Pivot</source>
        <translation>透视</translation>
    </message>
    <message>
        <source>Click a row to select its slice on the timeline</source>
        <translation>单击某行即可在时间线上选中其切片</translation>
    </message>
</context>
<context>
    <name>at::QueryPivot</name>
    <message>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <source>Rows of</source>
        <translation>数据来源</translation>
    </message>
    <message>
        <source>The table to group, or the result of the last query</source>
        <translation>要分组的表，或上一次查询的结果</translation>
    </message>
    <message>
        <source>Group by</source>
        <translation>分组依据</translation>
    </message>
    <message>
        <source>Compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>of</source>
        <translation>列</translation>
    </message>
    <message>
        <source>Build and Run</source>
        <translation>生成并运行</translation>
    </message>
    <message>
        <source>Writes the SQL into the editor (edit it there) and runs it</source>
        <translation>将 SQL 写入编辑器（可在其中修改）并运行</translation>
    </message>
</context>
<context>
    <name>at::QueryResultModel</name>
    <message numerus="yes">
        <source>(blob, %n byte(s))</source>
        <translation>
            <numerusform>（二进制数据，%n 字节）</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>at::RangeSliceListModel</name>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Lane</source>
        <translation>泳道</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>时长</translation>
    </message>
    <message>
        <source>Where the slice starts on the timeline&apos;s ruler: with ranks aligned, its rank&apos;s offset is added (Details shows the rank&apos;s own time)</source>
        <translation>切片在时间线标尺上的开始时间：对齐 rank 后已加上其 rank 的偏移（详情面板显示 rank 自身的时间）</translation>
    </message>
</context>
<context>
    <name>at::RankOffsetsDialog</name>
    <message>
        <source>Rank Offsets</source>
        <translation>Rank 偏移</translation>
    </message>
    <message>
        <source>Each rank&apos;s timeline is drawn moved by its offset (µs, up to three decimals; negative moves it earlier). The data is not changed. &quot;Align Ranks on This Collective&quot; in the lane menu of a communication op sets them automatically.</source>
        <translation>每个 Rank 的时间线按其偏移量平移绘制（µs，最多三位小数；负值表示提前）。数据本身不变。在通信算子的泳道菜单中选择“按此集合通信对齐 Rank”可自动设置。</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>Rank</translation>
    </message>
    <message>
        <source>Offset (µs)</source>
        <translation>偏移（µs）</translation>
    </message>
    <message>
        <source>&amp;Apply</source>
        <translation>应用(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Reset All to 0</source>
        <translation>全部重置为 0(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Close</source>
        <translation>关闭(&amp;C)</translation>
    </message>
    <message>
        <source>Not a number of µs, the offset is kept: %1</source>
        <translation>不是有效的 µs 数值，保留原偏移：%1</translation>
    </message>
</context>
<context>
    <name>at::RecentMenu</name>
    <message>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
</context>
<context>
    <name>at::SearchBar</name>
    <message>
        <source>Match case</source>
        <translation>区分大小写</translation>
    </message>
    <message>
        <source>Find:</source>
        <translation>查找：</translation>
    </message>
    <message>
        <source>Previous match (Shift+Enter)</source>
        <translation>上一个匹配项 (Shift+Enter)</translation>
    </message>
    <message>
        <source>Next match (Enter)</source>
        <translation>下一个匹配项 (Enter)</translation>
    </message>
    <message>
        <source>Close (Esc)</source>
        <translation>关闭 (Esc)</translation>
    </message>
    <message>
        <source>no matches</source>
        <translation>无匹配项</translation>
    </message>
    <message>
        <source>%1 matches</source>
        <translation>%1 个匹配项</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>slice name</source>
        <translation>切片名称</translation>
    </message>
    <message>
        <source>Slices whose name contains this text (Enter: next, Shift+Enter: previous)</source>
        <translation>名称包含此文本的切片（Enter：下一个，Shift+Enter：上一个）</translation>
    </message>
</context>
<context>
    <name>at::SessionController</name>
    <message>
        <source>Could not save the session to %1: %2</source>
        <translation>无法将会话保存到 %1：%2</translation>
    </message>
    <message>
        <source>The data of this session changed since it was saved (it starts at %1 µs, the session expected %2 µs); the view and markers may not line up.</source>
        <translation>此会话的数据自保存以来已发生变化（数据起始于 %1 µs，会话预期为 %2 µs）；视图和标记可能无法对齐。</translation>
    </message>
    <message>
        <source>not a regular file (a folder, FIFO, socket or device)</source>
        <translation>不是普通文件（是文件夹、FIFO、套接字或设备）</translation>
    </message>
    <message>
        <source>the session names itself as its data (%1), not a trace file or folder</source>
        <translation>该会话把自身（%1）作为数据，而不是轨迹文件或文件夹</translation>
    </message>
    <message>
        <source>its sessions name each other in a cycle: %1 → %2</source>
        <translation>其会话相互引用，形成循环：%1 → %2</translation>
    </message>
    <message>
        <source>more than %1 sessions name each other in a chain (%2 → …)</source>
        <translation>超过 %1 个会话依次相互引用（%2 → …）</translation>
    </message>
    <message>
        <source>the session it names, %1: %2</source>
        <translation>其引用的会话 %1：%2</translation>
    </message>
    <message>
        <source>its comparison session %1: %2</source>
        <translation>其对比会话 %1：%2</translation>
    </message>
</context>
<context>
    <name>at::ShortcutsDialog</name>
    <message>
        <source>Keyboard Shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>命令</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>按键</translation>
    </message>
</context>
<context>
    <name>at::StartPage</name>
    <message>
        <source>&lt;h2&gt;Ascend Timeline&lt;/h2&gt;Open a profiling result folder (PROF_*, *_ascend_pt, a folder of ranks), a trace file or a profiler database, or drop it here.</source>
        <translation>&lt;h2&gt;Ascend Timeline&lt;/h2&gt;打开性能数据结果目录（PROF_*、*_ascend_pt 或包含多卡数据的目录）、跟踪文件或 profiler 数据库，或将其拖放到此处。</translation>
    </message>
    <message>
        <source>Open File…</source>
        <translation>打开文件…</translation>
    </message>
    <message>
        <source>Open Folder…</source>
        <translation>打开文件夹…</translation>
    </message>
    <message>
        <source>Open the Bundled Sample</source>
        <translation>打开内置示例</translation>
    </message>
    <message>
        <source>&lt;b&gt;Recent&lt;/b&gt; (double-click or Enter to open)</source>
        <translation>&lt;b&gt;最近打开&lt;/b&gt;（双击或按 Enter 打开）</translation>
    </message>
</context>
<context>
    <name>at::StatisticsModel</name>
    <message>
        <source>Time the slices spent inside the selected range (clipped to it)</source>
        <translation>切片在所选区间内的耗时（截取到区间范围内）</translation>
    </message>
    <message>
        <source>Whole durations of the slices that overlap the range, also outside it</source>
        <translation>与区间重叠的切片的完整耗时（包括区间外的部分）</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Count</source>
        <translation>次数</translation>
    </message>
    <message>
        <source>Total</source>
        <translation>总计</translation>
    </message>
    <message>
        <source>Whole slices</source>
        <translation>完整切片</translation>
    </message>
    <message>
        <source>Average</source>
        <translation>平均</translation>
    </message>
    <message>
        <source>Min</source>
        <translation>最小</translation>
    </message>
    <message>
        <source>Max</source>
        <translation>最大</translation>
    </message>
    <message>
        <source>Self time</source>
        <translation>自身耗时</translation>
    </message>
</context>
<context>
    <name>at::StatisticsPanel</name>
    <message>
        <source>Drag across the timeline to see statistics for a time range.</source>
        <translation>在时间线上拖动以查看时间区间的统计。</translation>
    </message>
    <message>
        <source>Ctrl+drag to restrict the range to the lanes crossed.</source>
        <translation>按住 Ctrl 拖动可将范围限制在经过的泳道上。</translation>
    </message>
    <message>
        <source>%1 – %2 (%3)</source>
        <translation>%1 – %2（%3）</translation>
    </message>
    <message>
        <source>all lanes</source>
        <translation>全部泳道</translation>
    </message>
    <message numerus="yes">
        <source>%n lane(s)</source>
        <translation>
            <numerusform>%n 条泳道</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 on %2: %3 slices, %4 names</source>
        <translation>%1，%2：%3 个切片，%4 个名称</translation>
    </message>
    <message>
        <source>Slices: the first %1 of %2</source>
        <translation>切片：共 %2 个中的前 %1 个</translation>
    </message>
    <message>
        <source>Slices: %1</source>
        <translation>切片：%1</translation>
    </message>
    <message>
        <source>ranks aligned: each rank counted where it is drawn (its offset)</source>
        <translation>rank 已对齐：每个 rank 按其绘制位置（加上偏移）统计</translation>
    </message>
</context>
<context>
    <name>at::StepBarsChart</name>
    <message>
        <source>Click: the step on the timeline</source>
        <translation>单击：在时间线上显示该步</translation>
    </message>
</context>
<context>
    <name>at::StepCompareView</name>
    <message>
        <source>Match input shapes</source>
        <translation>匹配输入形状</translation>
    </message>
    <message>
        <source>By name</source>
        <translation>按名称</translation>
    </message>
    <message>
        <source>Per kernel</source>
        <translation>逐算子</translation>
    </message>
    <message>
        <source>Align on step start</source>
        <translation>按迭代开始对齐</translation>
    </message>
    <message>
        <source>Align on selected kernel</source>
        <translation>按所选算子对齐</translation>
    </message>
    <message>
        <source>Base:</source>
        <translation>基准：</translation>
    </message>
    <message>
        <source>Comparison:</source>
        <translation>对比：</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>迭代</translation>
    </message>
    <message>
        <source>Computing</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>Communication</source>
        <translation>通信</translation>
    </message>
    <message>
        <source>Not overlapped</source>
        <translation>未重叠</translation>
    </message>
    <message>
        <source>Free</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>&lt;br&gt;Kernels: %1 matched, %2 only in base, %3 only in comparison</source>
        <translation>&lt;br&gt;算子：%1 个已匹配，%2 个仅在基准中，%3 个仅在对比中</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; %2 — %3, time from step start</source>
        <extracomment>A compare pane&apos;s title: &quot;Base: &lt;run · rank · step&gt; — 12.3 ms, time from step start&quot;</extracomment>
        <translation>&lt;b&gt;%1&lt;/b&gt; %2 — %3，时间从迭代开始计</translation>
    </message>
    <message>
        <source>Time from step start (ms)</source>
        <translation>距迭代开始的时间 (ms)</translation>
    </message>
    <message>
        <source>Allocated (MB)</source>
        <translation>已分配 (MB)</translation>
    </message>
    <message>
        <source>Peaks</source>
        <translation>峰值</translation>
    </message>
    <message>
        <source>Base: %1 allocated</source>
        <extracomment>A compare chart series: &quot;Base: PTA+GE allocated&quot;</extracomment>
        <translation>基准：%1 已分配</translation>
    </message>
    <message>
        <source>Comparison: %1 allocated</source>
        <translation>对比：%1 已分配</translation>
    </message>
    <message>
        <source>no data</source>
        <translation>无数据</translation>
    </message>
    <message>
        <source>Memory peak (%1 allocated): %2 → %3</source>
        <translation>内存峰值（%1 已分配）：%2 → %3</translation>
    </message>
    <message>
        <source>%1 at %2</source>
        <extracomment>A step&apos;s memory peak: &quot;1,261.04 MB at 12.345 ms&quot; (time from the step start)</extracomment>
        <translation>%1，位于 %2</translation>
    </message>
</context>
<context>
    <name>at::StepsPanel</name>
    <message>
        <source>Compare…</source>
        <translation>比较…</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>迭代</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>耗时</translation>
    </message>
    <message>
        <source>Host</source>
        <translation>Host 侧</translation>
    </message>
    <message>
        <source>Device stage</source>
        <translation>设备阶段</translation>
    </message>
    <message>
        <source>Computing</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>Communication</source>
        <translation>通信</translation>
    </message>
    <message>
        <source>Not overlapped</source>
        <translation>未重叠</translation>
    </message>
    <message>
        <source>Free</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>Device tasks</source>
        <translation>设备任务</translation>
    </message>
    <message>
        <source>Select two steps to compare them, or one to compare it with a step of another open profile</source>
        <translation>选择两个迭代进行比较，或选择一个迭代与另一份已打开性能数据中的迭代比较</translation>
    </message>
    <message>
        <source>Double-click fits the timeline to a step; [ and ] step through them.</source>
        <translation>双击可使时间线适应该迭代；按 [ 和 ] 逐个切换迭代。</translation>
    </message>
    <message>
        <source>Peak memory (MB)</source>
        <translation>内存峰值 (MB)</translation>
    </message>
    <message>
        <source>Memory growth (MB)</source>
        <translation>内存净增长 (MB)</translation>
    </message>
    <message>
        <source>Peak allocated (operators)</source>
        <translation>算子内存分配峰值</translation>
    </message>
    <message>
        <source>Allocated growth (operators)</source>
        <translation>算子内存分配净增长</translation>
    </message>
    <message>
        <source>The operators&apos; memory curve of the rank (PTA+GE, else MindSpore+GE, PTA or GE; docs/MEMORY.md), its Allocated values. The cluster page shows the largest Reserved value of any component (usually APP) instead.</source>
        <translation>该 Rank 的算子内存曲线（PTA+GE，否则 MindSpore+GE、PTA 或 GE；见 docs/MEMORY.md）的已分配（Allocated）值。集群页显示的则是任一组件（通常为 APP）的最大预留（Reserved）值。</translation>
    </message>
    <message>
        <source>Allocated, %1: %2</source>
        <extracomment>%1: a memory component (&quot;PTA+GE&quot;); %2: its exact size</extracomment>
        <translation>已分配，%1：%2</translation>
    </message>
    <message>
        <source>ProfilerStep slices</source>
        <translation>ProfilerStep 切片</translation>
    </message>
    <message>
        <source>Iteration slices (step trace)</source>
        <translation>Iteration 切片（迭代轨迹）</translation>
    </message>
    <message>
        <source>step windows of the source</source>
        <translation>数据源声明的迭代窗口</translation>
    </message>
    <message>
        <source>step_trace table</source>
        <translation>step_trace 表</translation>
    </message>
    <message>
        <source>Step Id of the kernel table</source>
        <translation>算子表的 Step Id</translation>
    </message>
    <message>
        <source>ProfilerStep GPU annotations</source>
        <translation>ProfilerStep GPU 注解</translation>
    </message>
    <message>
        <source>The trace has no host ProfilerStep: the step is the span of its GPU annotations.</source>
        <translation>该 trace 没有主机侧 ProfilerStep：此迭代为其 GPU 注解的时间跨度。</translation>
    </message>
</context>
<context>
    <name>at::StrategyGrid</name>
    <message>
        <source>Parallel strategy grid</source>
        <translation>并行策略网格</translation>
    </message>
    <message>
        <source>one</source>
        <translation>一</translation>
    </message>
    <message>
        <source>%1 = %2 ranks; rows: %3, columns: %4</source>
        <translation>%1 = %2 个 Rank；行：%3，列：%4</translation>
    </message>
    <message>
        <source>%1: no rank has this figure</source>
        <translation>%1：没有 Rank 有此数值</translation>
    </message>
    <message>
        <source>%1 group (%2 ranks)</source>
        <translation>%1 组（%2 个 Rank）</translation>
    </message>
    <message>
        <source>named by a finding</source>
        <translation>被某项发现指出</translation>
    </message>
    <message>
        <source>Rank %1 (device %2)</source>
        <translation>Rank %1（设备 %2）</translation>
    </message>
    <message>
        <source>Rank %1</source>
        <translation>Rank %1</translation>
    </message>
    <message>
        <source>Not in this cluster folder</source>
        <translation>不在此集群文件夹中</translation>
    </message>
    <message>
        <source>Finding: %1</source>
        <translation>发现：%1</translation>
    </message>
    <message>
        <source>Click to open its timeline</source>
        <translation>单击打开其时间线</translation>
    </message>
    <message>
        <source>No parallel strategy known: %1</source>
        <translation>并行策略未知：%1</translation>
    </message>
    <message>
        <source>Findings naming rank %1:
%2</source>
        <translation>指出 Rank %1 的发现：
%2</translation>
    </message>
    <message>
        <source>%1 (within 5 %: coloured alike)</source>
        <translation>%1（相差在 5 % 以内：颜色相同）</translation>
    </message>
</context>
<context>
    <name>at::StrategyView</name>
    <message>
        <source>&amp;Colour by:</source>
        <translation>着色依据(&amp;C)：</translation>
    </message>
    <message>
        <source>Coordinates from distributed_args in Megatron order (TP fastest, then CP, DP, PP): the parallel groups do not place every rank (%1).</source>
        <translation>坐标按 Megatron 顺序取自 distributed_args（TP 变化最快，其次 CP、DP、PP）：并行组未能放置每个 Rank（%1）。</translation>
    </message>
    <message>
        <source>Coordinates from the parallel groups (parallel_group_info). Hover a rank to outline its groups; click it to open its timeline.</source>
        <translation>坐标取自并行组（parallel_group_info）。鼠标悬停在 Rank 上可勾勒其所在各组；单击可打开其时间线。</translation>
    </message>
</context>
<context>
    <name>at::SummaryTablesPanel</name>
    <message>
        <source>No other summary tables in this profile.</source>
        <translation>此性能数据中没有其他汇总表。</translation>
    </message>
    <message numerus="yes">
        <source>%n row(s)</source>
        <translation>
            <numerusform>%n 行</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>at::TimelineView</name>
    <message>
        <source>(%1, %2 hidden)</source>
        <translation>（已隐藏 %1、%2）</translation>
    </message>
    <message numerus="yes">
        <source>%n thread(s)</source>
        <translation>
            <numerusform>%n 个线程</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n counter(s)</source>
        <translation>
            <numerusform>%n 个计数器</numerusform>
        </translation>
    </message>
    <message>
        <source>(%1 hidden)</source>
        <translation>（已隐藏 %1）</translation>
    </message>
    <message>
        <source>max %1</source>
        <translation>最大 %1</translation>
    </message>
    <message numerus="yes">
        <source>▾ %n all-zero series (click to hide)</source>
        <translation>
            <numerusform>▾ %n 个全零序列（单击隐藏）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>▸ %n all-zero series hidden (click to show)</source>
        <translation>
            <numerusform>▸ 已隐藏 %n 个全零序列（单击显示）</numerusform>
        </translation>
    </message>
    <message>
        <source>View: %1</source>
        <translation>视图：%1</translation>
    </message>
    <message>
        <source>View: %1 from %2</source>
        <translation>视图：%1，起始于 %2</translation>
    </message>
    <message>
        <source>Open a trace file or folder (File ▸ Open, or drop it here)</source>
        <translation>打开跟踪文件或目录（文件 ▸ 打开，或拖放到此处）</translation>
    </message>
    <message>
        <source>Unpin %1</source>
        <translation>取消置顶 %1</translation>
    </message>
    <message>
        <source>Pin %1 to the Top</source>
        <translation>将 %1 置顶</translation>
    </message>
    <message>
        <source>Hide %1</source>
        <translation>隐藏 %1</translation>
    </message>
    <message>
        <source>Hide Lane %1</source>
        <translation>隐藏泳道 %1</translation>
    </message>
    <message numerus="yes">
        <source>Show %n Hidden Lane(s)</source>
        <translation>
            <numerusform>显示 %n 个隐藏的泳道</numerusform>
        </translation>
    </message>
    <message>
        <source>Start:</source>
        <translation>开始：</translation>
    </message>
    <message>
        <source>Duration:</source>
        <translation>时长：</translation>
    </message>
    <message>
        <source>Self time:</source>
        <translation>自身耗时：</translation>
    </message>
    <message>
        <source>Lane:</source>
        <translation>泳道：</translation>
    </message>
    <message numerus="yes">
        <source>%n more argument(s) in Details</source>
        <translation>
            <numerusform>详情中还有 %n 个参数</numerusform>
        </translation>
    </message>
    <message>
        <source>Value:</source>
        <translation>值：</translation>
    </message>
    <message>
        <source>Since:</source>
        <translation>起始于：</translation>
    </message>
    <message>
        <source>Maximum:</source>
        <translation>最大值：</translation>
    </message>
    <message>
        <source>Unpin %1 on Every Rank</source>
        <translation>在所有 Rank 上取消置顶 %1</translation>
    </message>
    <message>
        <source>Pin %1 on Every Rank</source>
        <translation>在所有 Rank 上将 %1 置顶</translation>
    </message>
    <message>
        <source>Collapse All %1</source>
        <translation>折叠全部 %1</translation>
    </message>
    <message>
        <source>Expand All %1</source>
        <translation>展开全部 %1</translation>
    </message>
    <message>
        <source>Restrict Range to Lane %1</source>
        <translation>将范围限制在泳道 %1</translation>
    </message>
    <message>
        <source>Add Lane %1 to the Range</source>
        <translation>将泳道 %1 加入范围</translation>
    </message>
    <message>
        <source>Remove Lane %1 from the Range</source>
        <translation>从范围中移除泳道 %1</translation>
    </message>
    <message>
        <source>Range on All Lanes</source>
        <translation>范围覆盖全部泳道</translation>
    </message>
    <message>
        <source>offset %1%2 µs</source>
        <translation>偏移 %1%2 µs</translation>
    </message>
    <message>
        <source>Align Ranks on This Collective</source>
        <translation>按此集合通信对齐 Rank</translation>
    </message>
    <message>
        <source>Rank&apos;s own start:</source>
        <extracomment>A slice&apos;s start on its rank&apos;s own clock, when the rank is drawn shifted by an offset (+12.345 µs)</extracomment>
        <translation>rank 自身时钟的开始：</translation>
    </message>
    <message>
        <source>%1 (offset %2%3 µs)</source>
        <translation>%1（偏移 %2%3 µs）</translation>
    </message>
    <message>
        <source>msprof export (CANN ≤ 5.x, one file set per iteration)</source>
        <translation>msprof 导出（CANN ≤ 5.x，每个迭代一组文件）</translation>
    </message>
    <message>
        <source>msprof export (CANN 6.x)</source>
        <translation>msprof 导出（CANN 6.x）</translation>
    </message>
    <message>
        <source>msprof export (CANN ≥ 7.0)</source>
        <translation>msprof 导出（CANN ≥ 7.0）</translation>
    </message>
    <message>
        <source>torch_npu profiler export</source>
        <translation>torch_npu profiler 导出</translation>
    </message>
    <message>
        <source>raw data</source>
        <translation>原始数据</translation>
    </message>
    <message>
        <source>trace file</source>
        <translation>跟踪文件</translation>
    </message>
    <message>
        <source>%1, database %2</source>
        <translation>%1，数据库 %2</translation>
    </message>
    <message>
        <source>%1, raw data decoded by Ascend Timeline</source>
        <translation>%1，由 Ascend Timeline 解析的原始数据</translation>
    </message>
    <message>
        <source>%1, device tasks drawn from %2</source>
        <translation>%1，设备任务取自 %2</translation>
    </message>
</context>
</TS>

// 演示游戏页面（简体中文）。
import type { GameQuestion } from "../../schema/index.ts";
import type { GameTextsSeed } from "../types.ts";

const requirements = (game: string) => [
  { label: "操作系统", value: "Windows 10 或 11（64 位）" },
  { label: "处理器", value: "任意 64 位 Intel 或 AMD 处理器" },
  { label: "内存", value: "8 GB" },
  { label: "游戏", value: game },
  { label: "磁盘空间", value: "300 MB" },
];

const common = (game: string): GameQuestion[] => [
  {
    question: `${game} 更新后会怎样？`,
    answer: "我们的新版本通常几小时内就绪。测试期间，上方状态会显示“更新中”；如果中断超过一天，所有有效订阅都会补回损失的天数。",
  },
  {
    question: "可以在几台电脑上使用？",
    answer: "同一时间只能在一台电脑上使用。您可以在个人资料中每周更换一次电脑。",
  },
  {
    question: "暂停一段时间会损失天数吗？",
    answer: "不会。在个人资料中冻结订阅，最长 30 天，剩余时间精确到秒为您保留。",
  },
];

export const cn: GameTextsSeed = {
  dota2: {
    tagline: "为 Dota 2 打造的简洁叠加层：冷却、计时和地图信息一目了然。",
    description:
      "Dota 2 套件会在游戏上方显示一个轻量叠加层，帮您记住平时要在脑子里算的事：敌人的技能冷却和物品、神符与拉野计时，以及每个小兵的补刀时机。所有功能都能在菜单里单独开关，直播和录像中完全看不到。",
    features: [
      { title: "冷却追踪", text: "敌方技能和关键物品的剩余冷却，直接显示在英雄头顶。" },
      { title: "神符与拉野计时", text: "神符刷新前、该拉野的时候，给您一个不打扰的提示。" },
      { title: "补刀辅助", text: "在一击就能补掉的小兵身上显示细小标记。" },
      { title: "更远的镜头", text: "镜头距离可调，让整场团战都在屏幕内。" },
      { title: "直播不可见", text: "录屏软件捕捉不到叠加层，您的录像干干净净。" },
    ],
    requirements: requirements("Dota 2，Steam 最新版本"),
    modes: [
      { name: "全英雄选择", text: "所有功能均可使用。" },
      { name: "加速模式", text: "计时会跟上该模式更快的节奏。" },
      { name: "技能征召", text: "追踪器能识别征召到的技能。" },
      { name: "自定义房间", text: "适合和好友练习或打电脑。" },
    ],
    changelog: [
      { version: "4.12", daysAgo: 2, notes: ["适配最新游戏补丁。", "神符计时已计入新的智慧神符。"] },
      { version: "4.11", daysAgo: 16, notes: ["可用鼠标滚轮调整镜头距离。", "修复冷却面板偶尔闪烁的问题。"] },
      { version: "4.10", daysAgo: 38, notes: ["全新补刀标记，在地图明亮区域也清晰可见。", "菜单已支持七种语言。"] },
    ],
    faq: [...common("Dota 2"), { question: "会修改游戏文件吗？", answer: "不会。叠加层在游戏旁独立运行，随时可以关闭；卸载后不会留下任何东西。" }],
    media: [
      { alt: "风格化的战场：三条兵线、一条河流，两座基地位于对角", caption: "整张地图尽在掌握" },
      { alt: "叠加层面板：英雄的生命值和魔法值，以及五个带冷却进度的技能图标", caption: "冷却和物品一目了然" },
      { alt: "标出两个神符的小地图，以及显示 0:42 的圆形计时器", caption: "神符计时，替您数秒" },
    ],
  },
  minecraft: {
    tagline: "在 Minecraft Java 版中更快找到方向和资源。",
    description:
      "Minecraft 套件是 Java 版的客户端扩展。它提供带路径点的小地图，高亮您要找的矿石，还有一组实用开关，在漫长的生存存档里帮您省下不少时间。单人游戏和允许客户端模组的服务器都能使用。",
    features: [
      { title: "小地图和路径点", text: "角落里的小地图，自动记录死亡地点，随时找到回家的路。" },
      { title: "矿石高亮", text: "选好需要的矿石，隔着石头也能看到。" },
      { title: "全亮度", text: "只想四处看看时，洞穴和夜晚都不用插火把。" },
      { title: "实用开关", text: "自动疾跑、按住缩放、一键整理背包。" },
      { title: "更流畅", text: "优化的渲染设置，老笔记本也能保持帧率稳定。" },
    ],
    requirements: requirements("Minecraft Java 版 1.20 或 1.21"),
    modes: [
      { name: "生存模式", text: "所有功能均可使用。" },
      { name: "创造模式", text: "小地图和开关方便搭建大型建筑。" },
      { name: "极限模式", text: "路径点和亮度让每条命都更安全。" },
      { name: "服务器", text: "仅限规则允许客户端模组的服务器。" },
    ],
    changelog: [
      { version: "2.7.1", daysAgo: 5, notes: ["支持最新的 1.21 版本。", "重启后路径点颜色不再丢失。"] },
      { version: "2.7.0", daysAgo: 19, notes: ["矿石高亮新增范围滑块。", "整理背包时不会移动已锁定的格子。"] },
      { version: "2.6.0", daysAgo: 47, notes: ["全新小地图渲染，速度提升一倍。", "下界和末地有各自的路径点列表。"] },
    ],
    faq: [...common("Minecraft"), { question: "需要安装 Forge 或 Fabric 吗？", answer: "不需要。个人资料里的启动器会自动装好一切，也不会动您的其他模组。" }],
    media: [
      { alt: "由草方块、泥土和石头组成的小岛，岛上有一棵树和一个池塘", caption: "为长期生存存档而生" },
      { alt: "俯视的方块地图，有一条河、玩家箭头和两个用虚线相连的路径点", caption: "带路径点的小地图" },
      { alt: "深色石墙中，三组矿石分别以青色、金色和红色描边", caption: "只高亮您选中的矿石" },
    ],
  },
  cs2: {
    tagline: "在 Counter-Strike 2 中高效练习：雷达、道具点位和压枪训练集于一处。",
    description:
      "CS2 套件帮您更快熟悉地图和操作。扩展雷达显示队友的位置和报点，道具库教您每张热门地图的烟雾弹和闪光弹，压枪训练会在您扫射时画出每把武器的弹道。所有功能都在一个叠加层里，一个按键就能打开。",
    features: [
      { title: "扩展雷达", text: "更大更清晰的雷达，显示队友位置和报点。" },
      { title: "道具库", text: "每张热门地图的烟雾弹、闪光弹和燃烧弹，标出站位和瞄点。" },
      { title: "压枪训练", text: "练习时实时画出手中武器的弹道。" },
      { title: "经济面板", text: "自动算好全队下一回合能买什么。" },
      { title: "直播不可见", text: "叠加层不会出现在直播、截图或录像中。" },
    ],
    requirements: requirements("Counter-Strike 2，Steam 最新版本"),
    modes: [
      { name: "休闲模式", text: "所有功能均可使用。" },
      { name: "死亡竞赛", text: "压枪训练在这里最有用。" },
      { name: "搭档模式", text: "双包点地图的道具点位。" },
      { name: "创意工坊地图", text: "训练图和您自己的练习服务器。" },
    ],
    changelog: [
      { version: "3.8.2", daysAgo: 9, notes: ["新增改版地图的道具点位。", "雷达会随屏幕分辨率缩放。"] },
      { version: "3.8.1", daysAgo: 23, notes: ["压枪训练加入新步枪。", "经济面板正确计算失败补偿。"] },
      { version: "3.8.0", daysAgo: 52, notes: ["全新叠加层菜单，一键打开。", "雷达报点支持七种语言。"] },
    ],
    faq: [...common("Counter-Strike 2"), { question: "可以只用来练习吗？", answer: "可以：在设置中可以把所有功能限制在离线服务器和创意工坊地图上。" }],
    media: [
      { alt: "俯视的地图轮廓，标有 A、B 两个包点、玩家位置和准星", caption: "从上方熟悉每张地图" },
      { alt: "带扫描线的圆形雷达，您的位置在中央，周围是队友和敌人的圆点", caption: "扩展雷达" },
      { alt: "一条从玩家出发、越过墙壁、落入烟雾中的手雷虚线轨迹", caption: "几分钟就能学会的道具点位" },
    ],
    statusNote: "游戏昨天发布了补丁。我们正在测试新版本，一天内上线。",
  },
};

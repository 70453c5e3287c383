// The demo games' pages in English.
import type { GameQuestion } from "../../schema/index.ts";
import type { GameTextsSeed } from "../types.ts";

const requirements = (game: string) => [
  { label: "Operating system", value: "Windows 10 or 11, 64-bit" },
  { label: "Processor", value: "Any 64-bit Intel or AMD processor" },
  { label: "Memory", value: "8 GB of RAM" },
  { label: "Game", value: game },
  { label: "Disk space", value: "300 MB" },
];

const common = (game: string): GameQuestion[] => [
  {
    question: `What happens when ${game} gets an update?`,
    answer:
      "Our build is usually ready within a few hours. While we test it, the status above says “Updating”, and if a break lasts longer than a day, every active subscription gets the lost days back.",
  },
  {
    question: "On how many computers can I use it?",
    answer: "On one computer at a time. You can switch to another one from your profile once a week.",
  },
  {
    question: "Can I take a break without losing days?",
    answer: "Yes. Freeze the subscription in your profile for up to 30 days; the remaining time waits for you to the second.",
  },
];

export const en: GameTextsSeed = {
  dota2: {
    tagline: "A calm, clear overlay for Dota 2: cooldowns, timers and map awareness at a glance.",
    description:
      "The Dota 2 suite adds a light overlay on top of the game that keeps track of what you would otherwise count in your head: enemy cooldowns and items, rune and camp timers, and the last hit on every creep. Everything can be switched on and off in the menu, and nothing shows on streams or recordings.",
    features: [
      { title: "Cooldown tracker", text: "Enemy spells and key items with their remaining cooldown, right above the hero." },
      { title: "Rune and stack timers", text: "A quiet signal before runes spawn and when it is time to stack a camp." },
      { title: "Last-hit helper", text: "A thin marker on creeps you can finish with one attack." },
      { title: "Wider camera", text: "Adjustable camera distance, so more of the fight fits on the screen." },
      { title: "Stream-safe", text: "The overlay is invisible to capture software: your recordings stay clean." },
    ],
    requirements: requirements("Dota 2, the current Steam version"),
    modes: [
      { name: "All Pick", text: "Every feature is available." },
      { name: "Turbo", text: "Timers follow the faster pace of the mode." },
      { name: "Ability Draft", text: "The tracker reads the drafted abilities." },
      { name: "Custom lobbies", text: "For practice with friends and in bot matches." },
    ],
    changelog: [
      { version: "4.12", daysAgo: 2, notes: ["Ready for the latest game patch.", "Rune timer now accounts for the new wisdom runes."] },
      { version: "4.11", daysAgo: 16, notes: ["Camera distance can be changed with the mouse wheel.", "Fixed a rare flicker of the cooldown panel."] },
      { version: "4.10", daysAgo: 38, notes: ["New last-hit marker, easier to see on bright maps.", "The menu is now translated into seven languages."] },
    ],
    faq: [
      ...common("Dota 2"),
      {
        question: "Does it change my game files?",
        answer: "No. The overlay runs alongside the game and can be closed at any time; removing it leaves nothing behind.",
      },
    ],
    media: [
      { alt: "A stylised battlefield with three lanes, a river and two bases at opposite corners", caption: "Map awareness across all three lanes" },
      { alt: "An overlay panel with a hero's health and mana and five ability icons with cooldown sweeps", caption: "Cooldowns and items at a glance" },
      { alt: "A minimap with two runes marked and a round timer showing 0:42", caption: "Rune timers that count for you" },
    ],
  },
  minecraft: {
    tagline: "Find your way and your resources faster in Minecraft: Java Edition.",
    description:
      "The Minecraft suite is a client add-on for Java Edition. It draws a minimap with waypoints, highlights the ores you are looking for, and adds quality-of-life toggles that save you time on long survival worlds. It works in single-player and on servers that allow client mods.",
    features: [
      { title: "Minimap and waypoints", text: "A small map in the corner, death points saved automatically, routes back home." },
      { title: "Ore highlighting", text: "Choose the ores you need and see them through the surrounding stone." },
      { title: "Full brightness", text: "Caves and nights without torches when you only want to look around." },
      { title: "Handy toggles", text: "Auto-sprint, hold-to-zoom and a clean inventory sort, each on its own key." },
      { title: "Lighter frames", text: "Tuned rendering settings that keep the frame rate steady on older laptops." },
    ],
    requirements: requirements("Minecraft: Java Edition 1.20 or 1.21"),
    modes: [
      { name: "Survival", text: "Every feature is available." },
      { name: "Creative", text: "The minimap and toggles help with large builds." },
      { name: "Hardcore", text: "Waypoints and brightness make every life count." },
      { name: "Servers", text: "Where the server's rules allow client mods." },
    ],
    changelog: [
      { version: "2.7.1", daysAgo: 5, notes: ["Support for the latest 1.21 release.", "Waypoints keep their colour after a restart."] },
      { version: "2.7.0", daysAgo: 19, notes: ["Ore highlighting got a range slider.", "Inventory sort respects locked slots."] },
      { version: "2.6.0", daysAgo: 47, notes: ["New minimap renderer, twice as fast.", "Nether and End have their own waypoint lists."] },
    ],
    faq: [
      ...common("Minecraft"),
      {
        question: "Do I need Forge or Fabric?",
        answer: "No. The launcher in your profile installs everything itself and keeps your other mods untouched.",
      },
    ],
    media: [
      { alt: "A small island of grass, dirt and stone blocks with a tree and a pond", caption: "Made for long survival worlds" },
      { alt: "A top-down map of blocks with a river, a player arrow and two waypoint pins joined by dotted lines", caption: "Minimap with waypoints" },
      { alt: "A wall of dark stone with three groups of ore blocks outlined in cyan, gold and red", caption: "The ores you choose, highlighted" },
    ],
  },
  cs2: {
    tagline: "Practise smarter in Counter-Strike 2: radar, lineups and a recoil trainer in one place.",
    description:
      "The CS2 suite helps you learn maps and mechanics faster. An extended radar shows where your team is and what they call, the lineup library teaches smokes and flashes for every popular map, and the recoil trainer shows the pattern of each weapon as you spray. Everything sits in one overlay that you open with a single key.",
    features: [
      { title: "Extended radar", text: "A larger, clearer radar with your team's positions and callouts." },
      { title: "Lineup library", text: "Smokes, flashes and molotovs for every popular map, with a marker where to stand and aim." },
      { title: "Recoil trainer", text: "The spray pattern of the weapon in your hands, drawn while you practise." },
      { title: "Economy panel", text: "What the team can afford next round, counted for you." },
      { title: "Stream-safe", text: "The overlay does not show on streams, screenshots or recordings." },
    ],
    requirements: requirements("Counter-Strike 2, the current Steam version"),
    modes: [
      { name: "Casual", text: "Every feature is available." },
      { name: "Deathmatch", text: "The recoil trainer is at its most useful here." },
      { name: "Wingman", text: "Lineups for the two-site maps." },
      { name: "Workshop maps", text: "Training maps and your own practice servers." },
    ],
    changelog: [
      { version: "3.8.2", daysAgo: 9, notes: ["Lineups for the reworked map added.", "The radar scales with your screen resolution."] },
      { version: "3.8.1", daysAgo: 23, notes: ["Recoil trainer covers the new rifle.", "Economy panel counts loss bonuses correctly."] },
      { version: "3.8.0", daysAgo: 52, notes: ["A new overlay menu that opens with one key.", "Callouts on the radar in seven languages."] },
    ],
    faq: [
      ...common("Counter-Strike 2"),
      {
        question: "Can I use it only for practice?",
        answer: "Yes: every feature can be limited to offline servers and workshop maps in the settings.",
      },
    ],
    media: [
      { alt: "A top-down map outline with bomb sites A and B, player dots and a crosshair", caption: "Learn every map from above" },
      { alt: "A round radar with a sweep, your position in the centre and team and enemy dots", caption: "An extended radar" },
      { alt: "A dotted grenade arc from a player over a wall, landing in a cloud of smoke", caption: "Lineups you can learn in minutes" },
    ],
    statusNote: "The game was patched yesterday. We are testing the new build; it will be out within a day.",
  },
};

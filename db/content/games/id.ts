// Halaman game demo dalam bahasa Indonesia.
import type { GameQuestion } from "../../schema/index.ts";
import type { GameTextsSeed } from "../types.ts";

const requirements = (game: string) => [
  { label: "Sistem operasi", value: "Windows 10 atau 11, 64-bit" },
  { label: "Prosesor", value: "Intel atau AMD 64-bit apa saja" },
  { label: "Memori", value: "RAM 8 GB" },
  { label: "Game", value: game },
  { label: "Ruang disk", value: "300 MB" },
];

const common = (game: string): GameQuestion[] => [
  {
    question: `Apa yang terjadi saat ${game} mendapat pembaruan?`,
    answer:
      "Build kami biasanya siap dalam beberapa jam. Selama kami mengujinya, status di atas menunjukkan “Sedang diperbarui”. Jika jedanya lebih dari sehari, semua langganan aktif mendapat kembali hari yang hilang.",
  },
  {
    question: "Bisa dipakai di berapa komputer?",
    answer: "Di satu komputer dalam satu waktu. Anda bisa pindah ke komputer lain dari profil seminggu sekali.",
  },
  {
    question: "Bisakah saya istirahat tanpa kehilangan hari?",
    answer: "Bisa. Bekukan langganan di profil hingga 30 hari; sisa waktunya tersimpan sampai ke detik terakhir.",
  },
];

export const id: GameTextsSeed = {
  dota2: {
    tagline: "Overlay yang rapi dan tenang untuk Dota 2: cooldown, timer, dan peta dalam sekali lihat.",
    description:
      "Paket Dota 2 menambahkan overlay ringan di atas game yang mencatat hal-hal yang biasanya harus Anda ingat sendiri: cooldown dan item lawan, timer rune dan stack, serta last hit pada setiap creep. Semuanya bisa dinyalakan dan dimatikan dari menu, dan tidak ada yang tampil di siaran langsung atau rekaman.",
    features: [
      { title: "Pelacak cooldown", text: "Skill dan item penting lawan beserta sisa cooldown-nya, tepat di atas hero." },
      { title: "Timer rune dan stack", text: "Sinyal halus sebelum rune muncul dan saat waktunya stack camp." },
      { title: "Bantuan last hit", text: "Penanda tipis pada creep yang bisa Anda habisi dengan satu serangan." },
      { title: "Kamera lebih jauh", text: "Jarak kamera bisa diatur, jadi lebih banyak pertarungan muat di layar." },
      { title: "Aman untuk streaming", text: "Overlay tidak tertangkap software perekam, jadi rekaman Anda tetap bersih." },
    ],
    requirements: requirements("Dota 2, versi Steam terbaru"),
    modes: [
      { name: "All Pick", text: "Semua fitur tersedia." },
      { name: "Turbo", text: "Timer mengikuti tempo mode yang lebih cepat." },
      { name: "Ability Draft", text: "Pelacak mengenali skill hasil draft." },
      { name: "Lobi kustom", text: "Untuk latihan bersama teman dan melawan bot." },
    ],
    changelog: [
      { version: "4.12", daysAgo: 2, notes: ["Siap untuk patch game terbaru.", "Timer rune kini memperhitungkan wisdom rune yang baru."] },
      { version: "4.11", daysAgo: 16, notes: ["Jarak kamera bisa diubah dengan roda mouse.", "Memperbaiki panel cooldown yang sesekali berkedip."] },
      { version: "4.10", daysAgo: 38, notes: ["Penanda last hit baru, lebih terlihat di area peta yang terang.", "Menu kini tersedia dalam tujuh bahasa."] },
    ],
    faq: [
      ...common("Dota 2"),
      { question: "Apakah ini mengubah file game?", answer: "Tidak. Overlay berjalan di samping game dan bisa ditutup kapan saja; setelah dihapus, tidak ada yang tertinggal." },
    ],
    media: [
      { alt: "Medan perang bergaya dengan tiga lane, sungai, dan dua markas di sudut yang berseberangan", caption: "Seluruh peta dalam pantauan" },
      { alt: "Panel overlay berisi darah dan mana hero serta lima ikon skill dengan hitungan cooldown", caption: "Cooldown dan item dalam sekali lihat" },
      { alt: "Minimap dengan dua rune yang ditandai dan timer bundar menunjukkan 0:42", caption: "Timer rune yang menghitung untuk Anda" },
    ],
  },
  minecraft: {
    tagline: "Temukan jalan dan sumber daya lebih cepat di Minecraft: Java Edition.",
    description:
      "Paket Minecraft adalah add-on klien untuk Java Edition. Paket ini menggambar minimap dengan waypoint, menyorot bijih yang Anda cari, dan menambahkan tombol praktis yang menghemat waktu di dunia survival yang panjang. Berfungsi di mode pemain tunggal dan di server yang mengizinkan mod klien.",
    features: [
      { title: "Minimap dan waypoint", text: "Peta kecil di pojok layar, titik kematian tersimpan otomatis, dan rute pulang ke rumah." },
      { title: "Sorotan bijih", text: "Pilih bijih yang Anda perlukan dan lihat menembus batu di sekitarnya." },
      { title: "Kecerahan penuh", text: "Gua dan malam tanpa obor saat Anda hanya ingin melihat-lihat." },
      { title: "Tombol praktis", text: "Lari otomatis, zoom dengan menahan tombol, dan penataan inventaris yang rapi." },
      { title: "Lebih ringan", text: "Pengaturan render yang menjaga FPS tetap stabil, bahkan di laptop lama." },
    ],
    requirements: requirements("Minecraft: Java Edition 1.20 atau 1.21"),
    modes: [
      { name: "Survival", text: "Semua fitur tersedia." },
      { name: "Creative", text: "Minimap dan tombol praktis membantu membangun proyek besar." },
      { name: "Hardcore", text: "Waypoint dan kecerahan membuat setiap nyawa berarti." },
      { name: "Server", text: "Di server yang aturannya mengizinkan mod klien." },
    ],
    changelog: [
      { version: "2.7.1", daysAgo: 5, notes: ["Mendukung rilis 1.21 terbaru.", "Waypoint tetap menyimpan warnanya setelah restart."] },
      { version: "2.7.0", daysAgo: 19, notes: ["Sorotan bijih kini punya penggeser jangkauan.", "Penataan inventaris tidak mengubah slot yang dikunci."] },
      { version: "2.6.0", daysAgo: 47, notes: ["Penggambar minimap baru, dua kali lebih cepat.", "Nether dan End punya daftar waypoint sendiri."] },
    ],
    faq: [...common("Minecraft"), { question: "Apakah saya perlu Forge atau Fabric?", answer: "Tidak. Launcher di profil Anda memasang semuanya sendiri tanpa menyentuh mod Anda yang lain." }],
    media: [
      { alt: "Pulau kecil dari balok rumput, tanah, dan batu dengan sebatang pohon dan kolam", caption: "Dibuat untuk dunia survival yang panjang" },
      { alt: "Peta balok dari atas dengan sungai, panah pemain, dan dua penanda waypoint yang dihubungkan garis titik-titik", caption: "Minimap dengan waypoint" },
      { alt: "Dinding batu gelap dengan tiga kelompok bijih bergaris tepi biru muda, emas, dan merah", caption: "Hanya bijih yang Anda pilih yang disorot" },
    ],
  },
  cs2: {
    tagline: "Latihan lebih cerdas di Counter-Strike 2: radar, lineup, dan pelatih recoil dalam satu tempat.",
    description:
      "Paket CS2 membantu Anda mempelajari peta dan mekanik lebih cepat. Radar yang diperluas menunjukkan posisi tim dan callout mereka, pustaka lineup mengajarkan smoke dan flash untuk semua peta populer, dan pelatih recoil menggambar pola setiap senjata saat Anda menembak. Semuanya ada dalam satu overlay yang dibuka dengan satu tombol.",
    features: [
      { title: "Radar diperluas", text: "Radar yang lebih besar dan jelas, lengkap dengan posisi dan callout tim Anda." },
      { title: "Pustaka lineup", text: "Smoke, flash, dan molotov untuk semua peta populer, dengan penanda tempat berdiri dan membidik." },
      { title: "Pelatih recoil", text: "Pola semburan senjata di tangan Anda, digambar selama latihan." },
      { title: "Panel ekonomi", text: "Apa yang bisa dibeli tim di ronde berikutnya, sudah dihitungkan." },
      { title: "Aman untuk streaming", text: "Overlay tidak tampil di siaran langsung, tangkapan layar, atau rekaman." },
    ],
    requirements: requirements("Counter-Strike 2, versi Steam terbaru"),
    modes: [
      { name: "Casual", text: "Semua fitur tersedia." },
      { name: "Deathmatch", text: "Di sinilah pelatih recoil paling berguna." },
      { name: "Wingman", text: "Lineup untuk peta dengan dua bombsite." },
      { name: "Peta Workshop", text: "Peta latihan dan server latihan Anda sendiri." },
    ],
    changelog: [
      { version: "3.8.2", daysAgo: 9, notes: ["Lineup untuk peta yang dirombak.", "Radar menyesuaikan resolusi layar."] },
      { version: "3.8.1", daysAgo: 23, notes: ["Pelatih recoil mencakup senapan baru.", "Panel ekonomi menghitung loss bonus dengan benar."] },
      { version: "3.8.0", daysAgo: 52, notes: ["Menu overlay baru yang terbuka dengan satu tombol.", "Callout radar dalam tujuh bahasa."] },
    ],
    faq: [
      ...common("Counter-Strike 2"),
      { question: "Bisakah saya memakainya hanya untuk latihan?", answer: "Bisa. Di pengaturan, semua fitur dapat dibatasi ke server offline dan peta Workshop." },
    ],
    media: [
      { alt: "Garis besar peta dari atas dengan bombsite A dan B, titik pemain, dan crosshair", caption: "Pelajari setiap peta dari atas" },
      { alt: "Radar bundar dengan sapuan, posisi Anda di tengah, serta titik kawan dan lawan", caption: "Radar yang diperluas" },
      { alt: "Lintasan granat bertitik dari pemain melewati tembok dan jatuh di awan asap", caption: "Lineup yang bisa dipelajari dalam hitungan menit" },
    ],
    statusNote: "Game mendapat patch kemarin. Kami sedang menguji build baru; build itu akan tersedia dalam sehari.",
  },
};

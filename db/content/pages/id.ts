// Halaman toko bawaan dalam bahasa Indonesia (docs/product/routes.md#legal-and-support-pages).
import type { SitePagesSeed } from "../types.ts";

export const id: SitePagesSeed = {
  terms: {
    title: "Syarat layanan",
    summary: "Aturan membeli dan memakai langganan di NOVA.",
    body: `Syarat ini berlaku untuk siapa saja yang membuat akun di NOVA atau membeli langganan di sini. Dengan melakukannya, Anda menyetujuinya. Jika tidak setuju, mohon jangan gunakan toko ini.

## Akun Anda
- Anda harus berusia minimal 18 tahun, atau memiliki izin orang tua atau wali.
- Jangan beri tahu siapa pun kata sandi Anda, dan aktifkan verifikasi dua langkah di pengaturan. Anda bertanggung jawab atas semua yang terjadi di akun Anda.
- Satu orang, satu akun. Akun tidak boleh dijual atau dipakai bersama.

## Langganan
- Langganan memberi akses ke software untuk satu game selama jumlah hari yang Anda beli. Waktunya mulai dihitung saat Anda membayar; hari yang dibeli untuk langganan aktif akan memperpanjangnya.
- Anda dapat membekukan langganan hingga 30 hari. Setelah diaktifkan kembali, pembekuan berikutnya bisa dilakukan 7 hari kemudian.
- Software berjalan di satu komputer dalam satu waktu.
- Jika software untuk suatu game tidak tersedia lebih dari 24 jam karena pembaruan atau perawatan, kami menambahkan waktu yang hilang ke semua langganan aktif game tersebut.

## Pembayaran dan saldo
- Harga ditampilkan sebelum Anda membayar. Anda membayar lewat PayPal atau dari saldo.
- Uang di saldo hanya bisa dipakai di NOVA. Saldo bukan simpanan bank dan tidak berbunga.
- Pengembalian dana mengikuti [kebijakan pengembalian dana](/refunds) kami.

## Penggunaan yang wajar
- Memakai software ini mungkin bertentangan dengan aturan suatu game atau server game. Periksa aturan tersebut sebelum bermain: akibat dari melanggarnya menjadi tanggung jawab Anda.
- Jangan menjual kembali, menyalin, mendekompilasi, atau membagikan software maupun akses Anda ke software tersebut.
- Kami dapat menangguhkan akun yang menyalahgunakan toko, misalnya akun yang mengajukan chargeback atas pembelian yang sudah dipakai.

## Tanggung jawab
Software disediakan apa adanya. Kami berusaha keras agar software tetap berfungsi setelah setiap pembaruan game, tetapi kami tidak bisa menjanjikan bahwa itu selalu terjadi. Tanggung jawab kami terbatas pada jumlah yang Anda bayar untuk langganan yang bersangkutan.

## Perubahan
Kami dapat mengubah syarat ini. Kami akan memberi tahu Anda lewat email paling lambat 14 hari sebelum perubahan yang memengaruhi Anda; langganan yang sudah dibeli tetap mengikuti syarat saat pembeliannya.

## Kontak
Pertanyaan tentang syarat ini: {support_email}, atau lihat [halaman bantuan](/support).`,
  },
  privacy: {
    title: "Kebijakan privasi",
    summary: "Data apa yang kami simpan tentang Anda, untuk apa, berapa lama, dan cara mendapatkan atau menghapusnya.",
    body: `Kebijakan ini menjelaskan apa yang kami simpan tentang Anda, mengapa kami memerlukannya, dan berapa lama kami menyimpannya.

## Yang kami simpan
- Akun Anda: alamat email, nama pengguna (opsional), kata sandi dalam bentuk hash satu arah, bahasa, dan preferensi email Anda.
- Pembelian Anda: langganan, saldo, setiap transaksi, dan referensi pembayaran dari PayPal. Kami tidak pernah melihat data kartu Anda.
- Data keamanan: alamat IP dan browser setiap sesi, serta ID pengunjung acak, untuk melindungi Anda dari pencurian akun dan mencegah penyalahgunaan program referral.
- Pesan: notifikasi dan email yang kami kirimkan kepada Anda.

## Mengapa kami memerlukannya
Untuk mengelola akun dan langganan Anda, memproses pembayaran dan pengembalian dana, menjaga keamanan akun, dan memenuhi kewajiban hukum kami, seperti menyimpan catatan pembayaran. Kami hanya mengirim kabar dan penawaran jika Anda mengizinkannya di pengaturan dan sudah mengonfirmasi alamat email.

## Siapa lagi yang melihatnya
- PayPal, untuk memproses pembayaran Anda.
- Penyedia email kami, untuk mengirimkan email kami.
Kami tidak menjual data Anda dan tidak membagikannya untuk iklan.

## Cookie
Hanya cookie yang dibutuhkan toko agar berfungsi: sesi Anda (access_token), bahasa (locale), ID pengunjung (t), game terakhir yang Anda buka (game), dan kode teman yang mengundang Anda (referrer). Tanpa cookie iklan atau pelacakan.

## Berapa lama kami menyimpannya
Data akun disimpan selama akun Anda ada. Catatan pembayaran disimpan selama diwajibkan hukum, bahkan setelah Anda menghapus akun. Sesi yang sudah berakhir dihapus setelah seminggu, dan isi email yang terkirim setelah satu jam.

## Hak Anda
- Mengunduh semua data Anda yang kami simpan dalam satu file: Pengaturan → “Unduh data saya”.
- Memperbaiki alamat email Anda di pengaturan.
- Menghapus akun: Pengaturan → “Hapus akun”. Data pribadi Anda dihapus; catatan pembayaran tetap ada, tanpa nama atau alamat Anda.
- Menanyakan apa saja tentang data Anda: {support_email}.`,
  },
  refunds: {
    title: "Kebijakan pengembalian dana",
    summary: "Kapan kami mengembalikan uang, cara memintanya, dan apa yang terjadi pada hari langganan Anda.",
    body: `Anda seharusnya hanya membayar waktu yang bisa Anda pakai. Halaman ini menjelaskan kapan dan bagaimana kami mengembalikan uang.

## Kapan Anda mendapat pengembalian dana
- Dalam 48 jam setelah pembelian, jika Anda belum menjalankan software dengan langganan tersebut.
- Jika software tidak berjalan di komputer yang memenuhi persyaratan, dan tim bantuan kami tidak bisa memperbaikinya dalam 3 hari.
- Jika Anda ditagih dua kali untuk pesanan yang sama.
Uang di saldo yang belum terpakai dapat dikembalikan ke akun PayPal asalnya dalam 30 hari setelah isi saldo.

## Kapan kami menambah hari sebagai gantinya
Jika software suatu game tidak tersedia lebih dari 24 jam (status “Terdeteksi” atau “Dalam perawatan” di halamannya), kami menambahkan waktu yang hilang ke semua langganan aktif game tersebut. Anda tidak perlu memintanya.

## Cara memintanya
Tulis ke {support_email} atau lihat [halaman bantuan](/support). Sertakan email akun Anda dan nomor pesanan dari struk atau riwayat saldo. Kami menjawab dalam satu hari kerja.

## Setelah pengembalian dana
- Uang kembali lewat jalur asalnya: ke akun PayPal Anda, atau ke saldo Anda.
- Hari yang Anda beli dikurangi dari langganan sesuai proporsi pengembalian dana. Waktu yang sudah Anda pakai tidak pernah diambil.
- Isi saldo yang dikembalikan diambil dari saldo terlebih dahulu; jika sudah Anda belanjakan, pembelian yang dibayar dengannya dibatalkan.

## Chargeback
Jika Anda menyengketakan pembayaran lewat PayPal atau bank tanpa menghubungi kami, akun akan ditangguhkan sampai sengketa selesai. Mohon hubungi kami lebih dulu: itu lebih cepat untuk semua.`,
  },
  support: {
    title: "Bantuan",
    summary: "Ada pertanyaan soal pembayaran, akun, atau software? Kami menjawab dalam bahasa Anda.",
    body: `Kami membalas setiap pesan dalam satu hari kerja, biasanya jauh lebih cepat, dalam salah satu dari tujuh bahasa toko.

## Sebelum menulis
- Pertanyaan soal pembayaran: siapkan nomor pesanan. Nomor itu ada di struk dan di riwayat saldo.
- Tidak bisa masuk: pilih “Lupa kata sandi?” di halaman masuk. Jika ponsel dengan kode verifikasi dua langkah hilang, masuklah dengan salah satu kode pemulihan Anda.
- Software tidak mau jalan: periksa dulu status di halaman game. Jika tertulis “Sedang diperbarui”, build baru sedang dalam perjalanan.

## Yang perlu disertakan
- Alamat email akun Anda. Jangan pernah mengirim kata sandi atau kode: kami tidak akan pernah memintanya.
- Game-nya, dan apa yang sedang Anda lakukan saat masalah muncul.
- Tangkapan layar, jika membantu.

[Syarat layanan](/terms), [kebijakan privasi](/privacy), dan [kebijakan pengembalian dana](/refunds) kami juga menjawab banyak pertanyaan.`,
  },
};

// Las páginas de los juegos de demostración en español.
import type { GameQuestion } from "../../schema/index.ts";
import type { GameTextsSeed } from "../types.ts";

const requirements = (game: string) => [
  { label: "Sistema operativo", value: "Windows 10 u 11 de 64 bits" },
  { label: "Procesador", value: "Cualquier Intel o AMD de 64 bits" },
  { label: "Memoria", value: "8 GB de RAM" },
  { label: "Juego", value: game },
  { label: "Espacio en disco", value: "300 MB" },
];

const common = (game: string): GameQuestion[] => [
  {
    question: `¿Qué pasa cuando ${game} se actualiza?`,
    answer:
      "Nuestra versión suele estar lista en pocas horas. Mientras la probamos, el estado de arriba dice «Actualizándose», y si la pausa dura más de un día, todas las suscripciones activas recuperan los días perdidos.",
  },
  {
    question: "¿En cuántos ordenadores puedo usarlo?",
    answer: "En un ordenador a la vez. Puedes cambiar a otro desde tu perfil una vez por semana.",
  },
  {
    question: "¿Puedo tomarme un descanso sin perder días?",
    answer: "Sí. Congela la suscripción desde tu perfil hasta 30 días: el tiempo restante te espera al segundo.",
  },
];

export const es: GameTextsSeed = {
  dota2: {
    tagline: "Un overlay claro y discreto para Dota 2: enfriamientos, temporizadores y mapa de un vistazo.",
    description:
      "El paquete para Dota 2 añade sobre el juego un overlay ligero que lleva la cuenta de lo que normalmente tendrías que recordar: enfriamientos y objetos de los enemigos, temporizadores de runas y de stackeo, y el último golpe a cada creep. Todo se activa o desactiva desde el menú, y nada aparece en directos ni grabaciones.",
    features: [
      { title: "Enfriamientos a la vista", text: "Habilidades y objetos clave del enemigo con su tiempo restante, justo encima del héroe." },
      { title: "Runas y stackeo", text: "Un aviso discreto antes de que aparezcan las runas y cuando toca stackear un campamento." },
      { title: "Ayuda con el último golpe", text: "Una marca fina sobre los creeps que puedes rematar de un solo ataque." },
      { title: "Cámara más alejada", text: "Distancia de cámara ajustable para que quepa más pelea en pantalla." },
      { title: "Invisible en directo", text: "El overlay no aparece en el software de captura: tus grabaciones quedan limpias." },
    ],
    requirements: requirements("Dota 2, la versión actual de Steam"),
    modes: [
      { name: "All Pick", text: "Todas las funciones disponibles." },
      { name: "Turbo", text: "Los temporizadores siguen el ritmo rápido del modo." },
      { name: "Ability Draft", text: "El seguimiento reconoce las habilidades elegidas." },
      { name: "Salas personalizadas", text: "Para practicar con amigos y en partidas contra bots." },
    ],
    changelog: [
      { version: "4.12", daysAgo: 2, notes: ["Listo para el último parche del juego.", "El temporizador de runas tiene en cuenta las nuevas runas de sabiduría."] },
      { version: "4.11", daysAgo: 16, notes: ["La distancia de cámara se cambia con la rueda del ratón.", "Corregido un parpadeo poco frecuente del panel de enfriamientos."] },
      { version: "4.10", daysAgo: 38, notes: ["Nueva marca de último golpe, más visible en zonas claras del mapa.", "El menú ya está en siete idiomas."] },
    ],
    faq: [
      ...common("Dota 2"),
      { question: "¿Modifica los archivos del juego?", answer: "No. El overlay funciona junto al juego y se puede cerrar en cualquier momento; al desinstalarlo no queda nada." },
    ],
    media: [
      { alt: "Un campo de batalla estilizado con tres calles, un río y dos bases en esquinas opuestas", caption: "Todo el mapa bajo control" },
      { alt: "Un panel con la vida y el maná de un héroe y cinco iconos de habilidades con su enfriamiento", caption: "Enfriamientos y objetos de un vistazo" },
      { alt: "Un minimapa con dos runas marcadas y un temporizador circular en 0:42", caption: "Temporizadores de runas que cuentan por ti" },
    ],
  },
  minecraft: {
    tagline: "Encuentra el camino y los recursos más rápido en Minecraft: Java Edition.",
    description:
      "El paquete para Minecraft es un complemento de cliente para Java Edition. Dibuja un minimapa con puntos de ruta, resalta los minerales que buscas y añade atajos útiles que te ahorran tiempo en los mundos de supervivencia largos. Funciona en un jugador y en servidores que permiten mods de cliente.",
    features: [
      { title: "Minimapa y puntos de ruta", text: "Un mapa pequeño en la esquina, el punto de muerte guardado solo y el camino de vuelta a casa." },
      { title: "Minerales resaltados", text: "Elige los minerales que necesitas y velos a través de la piedra." },
      { title: "Brillo total", text: "Cuevas y noches sin antorchas cuando solo quieres echar un vistazo." },
      { title: "Atajos prácticos", text: "Correr automáticamente, zoom al mantener una tecla y un orden de inventario limpio." },
      { title: "Más fluidez", text: "Ajustes de renderizado que mantienen estables los FPS incluso en portátiles antiguos." },
    ],
    requirements: requirements("Minecraft: Java Edition 1.20 o 1.21"),
    modes: [
      { name: "Supervivencia", text: "Todas las funciones disponibles." },
      { name: "Creativo", text: "El minimapa y los atajos ayudan con las construcciones grandes." },
      { name: "Extremo", text: "Los puntos de ruta y el brillo hacen que cada vida cuente." },
      { name: "Servidores", text: "Donde las reglas del servidor permiten mods de cliente." },
    ],
    changelog: [
      { version: "2.7.1", daysAgo: 5, notes: ["Compatible con la última versión 1.21.", "Los puntos de ruta conservan su color tras reiniciar."] },
      { version: "2.7.0", daysAgo: 19, notes: ["El resaltado de minerales tiene un control de alcance.", "El orden del inventario respeta las casillas bloqueadas."] },
      { version: "2.6.0", daysAgo: 47, notes: ["Nuevo minimapa, el doble de rápido.", "El Nether y el End tienen sus propias listas de puntos de ruta."] },
    ],
    faq: [...common("Minecraft"), { question: "¿Necesito Forge o Fabric?", answer: "No. El lanzador de tu perfil lo instala todo y no toca tus otros mods." }],
    media: [
      { alt: "Una pequeña isla de bloques de hierba, tierra y piedra con un árbol y un estanque", caption: "Pensado para mundos de supervivencia largos" },
      { alt: "Un mapa de bloques visto desde arriba con un río, la flecha del jugador y dos marcadores unidos por una línea de puntos", caption: "Minimapa con puntos de ruta" },
      { alt: "Una pared de piedra oscura con tres grupos de mineral contorneados en cian, dorado y rojo", caption: "Solo los minerales que eliges" },
    ],
  },
  cs2: {
    tagline: "Entrena con cabeza en Counter-Strike 2: radar, lineups y entrenador de retroceso en un solo lugar.",
    description:
      "El paquete para CS2 te ayuda a aprender mapas y mecánicas más rápido. Un radar ampliado muestra dónde está tu equipo y qué avisa, la biblioteca de lineups enseña humos y flashes para todos los mapas populares, y el entrenador de retroceso dibuja el patrón de cada arma mientras disparas. Todo está en un overlay que se abre con una sola tecla.",
    features: [
      { title: "Radar ampliado", text: "Un radar más grande y claro con las posiciones y los avisos de tu equipo." },
      { title: "Biblioteca de lineups", text: "Humos, flashes y molotovs para todos los mapas populares, con una marca de dónde colocarte y apuntar." },
      { title: "Entrenador de retroceso", text: "El patrón de dispersión del arma que llevas, dibujado mientras practicas." },
      { title: "Panel de economía", text: "Lo que el equipo podrá comprar la próxima ronda, calculado por ti." },
      { title: "Invisible en directo", text: "El overlay no aparece en directos, capturas ni grabaciones." },
    ],
    requirements: requirements("Counter-Strike 2, la versión actual de Steam"),
    modes: [
      { name: "Casual", text: "Todas las funciones disponibles." },
      { name: "Duelo a muerte", text: "Aquí el entrenador de retroceso es más útil que nunca." },
      { name: "Compañeros", text: "Lineups para los mapas de dos zonas." },
      { name: "Mapas del Workshop", text: "Mapas de entrenamiento y tus propios servidores de práctica." },
    ],
    changelog: [
      { version: "3.8.2", daysAgo: 9, notes: ["Lineups para el mapa renovado.", "El radar se adapta a la resolución de pantalla."] },
      { version: "3.8.1", daysAgo: 23, notes: ["El entrenador de retroceso incluye el nuevo rifle.", "El panel de economía cuenta bien el bonus por derrota."] },
      { version: "3.8.0", daysAgo: 52, notes: ["Nuevo menú del overlay que se abre con una tecla.", "Avisos del radar en siete idiomas."] },
    ],
    faq: [
      ...common("Counter-Strike 2"),
      { question: "¿Puedo usarlo solo para practicar?", answer: "Sí: en la configuración puedes limitar todas las funciones a servidores sin conexión y mapas del Workshop." },
    ],
    media: [
      { alt: "El contorno de un mapa visto desde arriba con las zonas de bomba A y B, jugadores y una mira", caption: "Aprende cada mapa desde arriba" },
      { alt: "Un radar circular con barrido, tu posición en el centro y puntos de aliados y enemigos", caption: "Un radar ampliado" },
      { alt: "La trayectoria punteada de una granada que pasa por encima de un muro y cae en una nube de humo", caption: "Lineups que aprendes en minutos" },
    ],
    statusNote: "El juego recibió un parche ayer. Estamos probando la nueva versión; estará lista en menos de un día.",
  },
};

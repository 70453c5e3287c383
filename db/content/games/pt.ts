// As páginas dos jogos de demonstração em português.
import type { GameQuestion } from "../../schema/index.ts";
import type { GameTextsSeed } from "../types.ts";

const requirements = (game: string) => [
  { label: "Sistema operacional", value: "Windows 10 ou 11, 64 bits" },
  { label: "Processador", value: "Qualquer Intel ou AMD de 64 bits" },
  { label: "Memória", value: "8 GB de RAM" },
  { label: "Jogo", value: game },
  { label: "Espaço em disco", value: "300 MB" },
];

const common = (game: string): GameQuestion[] => [
  {
    question: `O que acontece quando ${game} recebe uma atualização?`,
    answer:
      "Nossa versão costuma ficar pronta em poucas horas. Enquanto testamos, o status acima mostra “Em atualização”, e se a pausa passar de um dia, todas as assinaturas ativas recebem de volta os dias perdidos.",
  },
  {
    question: "Em quantos computadores posso usar?",
    answer: "Em um computador por vez. Dá para trocar de computador pelo seu perfil uma vez por semana.",
  },
  {
    question: "Posso dar uma pausa sem perder dias?",
    answer: "Sim. Congele a assinatura no seu perfil por até 30 dias: o tempo restante fica guardado até o último segundo.",
  },
];

export const pt: GameTextsSeed = {
  dota2: {
    tagline: "Um overlay limpo e discreto para Dota 2: recargas, cronômetros e mapa num relance.",
    description:
      "O pacote para Dota 2 coloca sobre o jogo um overlay leve que acompanha o que você normalmente teria de contar de cabeça: recargas e itens dos inimigos, cronômetros de runas e de stack, e o último golpe em cada creep. Tudo liga e desliga pelo menu, e nada aparece em lives ou gravações.",
    features: [
      { title: "Recargas à vista", text: "Habilidades e itens-chave dos inimigos com o tempo restante, logo acima do herói." },
      { title: "Runas e stack", text: "Um aviso discreto antes das runas aparecerem e na hora de stackar um acampamento." },
      { title: "Ajuda no último golpe", text: "Uma marca fina nos creeps que você finaliza com um ataque." },
      { title: "Câmera mais aberta", text: "Distância de câmera ajustável, para caber mais da luta na tela." },
      { title: "Invisível na live", text: "O overlay não aparece nos programas de captura: suas gravações ficam limpas." },
    ],
    requirements: requirements("Dota 2, a versão atual da Steam"),
    modes: [
      { name: "All Pick", text: "Todos os recursos disponíveis." },
      { name: "Turbo", text: "Os cronômetros acompanham o ritmo acelerado do modo." },
      { name: "Ability Draft", text: "O rastreador reconhece as habilidades sorteadas." },
      { name: "Lobbies personalizados", text: "Para treinar com amigos e em partidas contra bots." },
    ],
    changelog: [
      { version: "4.12", daysAgo: 2, notes: ["Pronto para o patch mais recente do jogo.", "O cronômetro de runas considera as novas runas de sabedoria."] },
      { version: "4.11", daysAgo: 16, notes: ["A distância da câmera muda com a roda do mouse.", "Corrigida uma piscada rara do painel de recargas."] },
      { version: "4.10", daysAgo: 38, notes: ["Nova marca de último golpe, mais visível em áreas claras do mapa.", "O menu agora está em sete idiomas."] },
    ],
    faq: [
      ...common("Dota 2"),
      { question: "Ele altera os arquivos do jogo?", answer: "Não. O overlay roda ao lado do jogo e pode ser fechado a qualquer momento; ao removê-lo, nada fica para trás." },
    ],
    media: [
      { alt: "Um campo de batalha estilizado com três rotas, um rio e duas bases em cantos opostos", caption: "O mapa inteiro sob controle" },
      { alt: "Um painel com a vida e a mana de um herói e cinco ícones de habilidades com a recarga", caption: "Recargas e itens num relance" },
      { alt: "Um minimapa com duas runas marcadas e um cronômetro circular em 0:42", caption: "Cronômetros de runas que contam por você" },
    ],
  },
  minecraft: {
    tagline: "Encontre o caminho e os recursos mais rápido no Minecraft: Java Edition.",
    description:
      "O pacote para Minecraft é um complemento de cliente para a Java Edition. Ele desenha um minimapa com waypoints, destaca os minérios que você procura e traz atalhos práticos que poupam tempo em mundos de sobrevivência longos. Funciona no single-player e em servidores que permitem mods de cliente.",
    features: [
      { title: "Minimapa e waypoints", text: "Um mapinha no canto, o ponto de morte salvo automaticamente e o caminho de volta para casa." },
      { title: "Minérios em destaque", text: "Escolha os minérios de que precisa e veja-os através da pedra." },
      { title: "Brilho total", text: "Cavernas e noites sem tochas quando você só quer dar uma olhada." },
      { title: "Atalhos práticos", text: "Corrida automática, zoom segurando uma tecla e um inventário bem organizado." },
      { title: "Mais leve", text: "Ajustes de renderização que mantêm o FPS estável até em notebooks antigos." },
    ],
    requirements: requirements("Minecraft: Java Edition 1.20 ou 1.21"),
    modes: [
      { name: "Sobrevivência", text: "Todos os recursos disponíveis." },
      { name: "Criativo", text: "O minimapa e os atalhos ajudam nas construções grandes." },
      { name: "Hardcore", text: "Waypoints e brilho fazem cada vida valer." },
      { name: "Servidores", text: "Onde as regras do servidor permitem mods de cliente." },
    ],
    changelog: [
      { version: "2.7.1", daysAgo: 5, notes: ["Suporte à versão 1.21 mais recente.", "Os waypoints mantêm a cor depois de reiniciar."] },
      { version: "2.7.0", daysAgo: 19, notes: ["O destaque de minérios ganhou um controle de alcance.", "A organização do inventário respeita os espaços travados."] },
      { version: "2.6.0", daysAgo: 47, notes: ["Novo minimapa, duas vezes mais rápido.", "Nether e End têm suas próprias listas de waypoints."] },
    ],
    faq: [...common("Minecraft"), { question: "Preciso de Forge ou Fabric?", answer: "Não. O launcher do seu perfil instala tudo sozinho e não mexe nos seus outros mods." }],
    media: [
      { alt: "Uma pequena ilha de blocos de grama, terra e pedra com uma árvore e um lago", caption: "Feito para mundos de sobrevivência longos" },
      { alt: "Um mapa de blocos visto de cima com um rio, a seta do jogador e dois marcadores ligados por uma linha pontilhada", caption: "Minimapa com waypoints" },
      { alt: "Uma parede de pedra escura com três grupos de minério contornados em ciano, dourado e vermelho", caption: "Só os minérios que você escolher" },
    ],
  },
  cs2: {
    tagline: "Treine melhor no Counter-Strike 2: radar, lineups e treino de recoil num só lugar.",
    description:
      "O pacote para CS2 ajuda você a aprender mapas e mecânicas mais rápido. Um radar ampliado mostra onde seu time está e o que ele anuncia, a biblioteca de lineups ensina smokes e flashes para todos os mapas populares, e o treino de recoil desenha o padrão de cada arma enquanto você atira. Tudo fica num overlay que abre com uma tecla.",
    features: [
      { title: "Radar ampliado", text: "Um radar maior e mais claro, com as posições e as calls do seu time." },
      { title: "Biblioteca de lineups", text: "Smokes, flashes e molotovs para todos os mapas populares, com a marca de onde ficar e mirar." },
      { title: "Treino de recoil", text: "O padrão de spray da arma na sua mão, desenhado enquanto você treina." },
      { title: "Painel de economia", text: "O que o time pode comprar no próximo round, calculado para você." },
      { title: "Invisível na live", text: "O overlay não aparece em lives, capturas de tela nem gravações." },
    ],
    requirements: requirements("Counter-Strike 2, a versão atual da Steam"),
    modes: [
      { name: "Casual", text: "Todos os recursos disponíveis." },
      { name: "Mata-mata", text: "É aqui que o treino de recoil mais ajuda." },
      { name: "Parceiros", text: "Lineups para os mapas de dois bombsites." },
      { name: "Mapas da Oficina", text: "Mapas de treino e seus próprios servidores." },
    ],
    changelog: [
      { version: "3.8.2", daysAgo: 9, notes: ["Lineups para o mapa reformulado.", "O radar se ajusta à resolução da tela."] },
      { version: "3.8.1", daysAgo: 23, notes: ["O treino de recoil inclui o novo rifle.", "O painel de economia conta certo o bônus por derrota."] },
      { version: "3.8.0", daysAgo: 52, notes: ["Novo menu do overlay, que abre com uma tecla.", "Calls no radar em sete idiomas."] },
    ],
    faq: [
      ...common("Counter-Strike 2"),
      { question: "Posso usar só para treinar?", answer: "Sim: nas configurações, todos os recursos podem ficar restritos a servidores offline e mapas da Oficina." },
    ],
    media: [
      { alt: "O contorno de um mapa visto de cima com os bombsites A e B, jogadores e uma mira", caption: "Aprenda cada mapa de cima" },
      { alt: "Um radar redondo com varredura, sua posição no centro e pontos de aliados e inimigos", caption: "Um radar ampliado" },
      { alt: "A trajetória pontilhada de uma granada que passa por cima de um muro e cai numa nuvem de fumaça", caption: "Lineups que você aprende em minutos" },
    ],
    statusNote: "O jogo recebeu um patch ontem. Estamos testando a nova versão; ela sai em até um dia.",
  },
};

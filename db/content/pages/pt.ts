// As páginas padrão da loja em português (docs/product/routes.md#legal-and-support-pages).
import type { SitePagesSeed } from "../types.ts";

export const pt: SitePagesSeed = {
  terms: {
    title: "Termos de serviço",
    summary: "As regras para comprar e usar assinaturas na NOVA.",
    body: `Estes termos valem para todos que criam uma conta na NOVA ou compram uma assinatura aqui. Ao fazer isso, você os aceita. Se não concordar, por favor não use a loja.

## Sua conta
- Você precisa ter pelo menos 18 anos ou a autorização de um responsável.
- Não compartilhe sua senha e ative a verificação em duas etapas nas configurações. Você é responsável pelo que acontece na sua conta.
- Uma pessoa, uma conta. Contas não podem ser vendidas nem compartilhadas.

## Assinaturas
- Uma assinatura dá acesso ao software de um jogo pelo número de dias que você comprou. O tempo começa a contar no pagamento; dias comprados para uma assinatura ativa a estendem.
- Você pode congelar uma assinatura por até 30 dias. Depois de descongelar, o próximo congelamento fica disponível 7 dias depois.
- O software funciona em um computador por vez.
- Se o software de um jogo ficar indisponível por mais de 24 horas por causa de uma atualização ou manutenção, adicionamos o tempo perdido a todas as assinaturas ativas desse jogo.

## Pagamento e saldo
- O preço aparece antes do pagamento. Você paga pelo PayPal ou com seu saldo.
- O dinheiro do saldo só pode ser usado na NOVA. Ele não é um depósito bancário e não rende juros.
- Reembolsos seguem nossa [política de reembolso](/refunds).

## Uso justo
- Usar o software pode ir contra as regras de um jogo ou de um servidor. Confira essas regras antes de jogar: as consequências de descumpri-las são suas.
- Não revenda, copie, descompile nem compartilhe o software ou o seu acesso a ele.
- Podemos suspender uma conta que abuse da loja, por exemplo, uma que conteste um pagamento de uma compra já usada.

## Responsabilidade
O software é fornecido como está. Fazemos o possível para que ele funcione depois de cada atualização do jogo, mas não podemos prometer que sempre funcionará. Nossa responsabilidade se limita ao valor que você pagou pela assinatura em questão.

## Alterações
Podemos alterar estes termos. Avisaremos por e-mail com pelo menos 14 dias de antecedência sobre qualquer mudança que afete você; uma assinatura já comprada mantém as condições com que foi comprada.

## Contato
Dúvidas sobre estes termos: {support_email}, ou acesse a [página de suporte](/support).`,
  },
  privacy: {
    title: "Política de privacidade",
    summary: "Quais dados guardamos sobre você, por quê, por quanto tempo e como obtê-los ou apagá-los.",
    body: `Esta política explica o que guardamos sobre você, por que precisamos disso e por quanto tempo mantemos.

## O que guardamos
- Sua conta: endereço de e-mail, nome de usuário opcional, sua senha como hash irreversível, seu idioma e suas preferências de e-mail.
- Suas compras: assinaturas, saldo, cada transação e as referências de pagamento que o PayPal nos envia. Nunca vemos os dados do seu cartão.
- Dados de segurança: o endereço IP e o navegador de cada sessão, e um identificador de visitante aleatório, para proteger você contra roubo de conta e evitar abusos do programa de indicação.
- Mensagens: as notificações e os e-mails que enviamos a você.

## Por que precisamos disso
Para manter sua conta e suas assinaturas, processar pagamentos e reembolsos, proteger as contas e cumprir nossas obrigações legais, como guardar registros de pagamentos. Só enviamos novidades e ofertas se você permitir nas configurações e tiver confirmado seu endereço.

## Quem mais vê
- O PayPal, para processar seus pagamentos.
- Nosso provedor de e-mail, para entregar nossas mensagens.
Não vendemos seus dados nem os compartilhamos para publicidade.

## Cookies
Só os cookies de que a loja precisa para funcionar: sua sessão (access_token), seu idioma (locale), um identificador de visitante (t), o último jogo que você abriu (game) e o código do amigo que convidou você (referrer). Nenhum cookie de publicidade ou rastreamento.

## Por quanto tempo guardamos
Os dados da conta, enquanto ela existir. Os registros de pagamento, pelo tempo que a lei exigir, mesmo depois que você excluir a conta. Sessões encerradas são apagadas após uma semana, e o texto dos e-mails enviados, após uma hora.

## Seus direitos
- Baixar em um arquivo tudo o que guardamos sobre você: Configurações → “Baixar meus dados”.
- Corrigir seu endereço de e-mail nas configurações.
- Excluir sua conta: Configurações → “Excluir conta”. Seus dados pessoais são apagados; os registros de pagamento ficam, sem seu nome e endereço.
- Perguntar qualquer coisa sobre seus dados: {support_email}.`,
  },
  refunds: {
    title: "Política de reembolso",
    summary: "Quando devolvemos o dinheiro, como pedir e o que acontece com seus dias.",
    body: `Você só deve pagar pelo tempo que consegue usar. Aqui explicamos quando e como devolvemos o dinheiro.

## Quando você recebe reembolso
- Em até 48 horas após a compra, se você ainda não iniciou o software com essa assinatura.
- Quando o software não funciona num computador que atende aos requisitos e o suporte não conseguiu resolver em 3 dias.
- Quando você foi cobrado duas vezes pelo mesmo pedido.
O dinheiro do saldo que você não gastou pode ser devolvido à conta PayPal de onde veio em até 30 dias após a recarga.

## Quando adicionamos dias em vez disso
Se o software de um jogo ficar indisponível por mais de 24 horas (status “Detectado” ou “Em manutenção” na página dele), adicionamos o tempo perdido a todas as assinaturas ativas desse jogo. Você não precisa pedir.

## Como pedir
Escreva para {support_email} ou acesse a [página de suporte](/support). Informe o e-mail da sua conta e o número do pedido, que está no recibo ou no histórico do saldo. Respondemos em até um dia útil.

## O que acontece depois do reembolso
- O dinheiro volta pelo mesmo caminho: para sua conta PayPal ou para seu saldo.
- Os dias comprados são descontados da assinatura na proporção do reembolso. O tempo que você já usou nunca é retirado.
- Uma recarga reembolsada sai primeiro do saldo; se você já gastou, o que foi pago com ela é desfeito.

## Contestações
Se você contestar um pagamento no PayPal ou no banco em vez de falar conosco, a conta fica suspensa até a contestação ser resolvida. Por favor, fale com a gente primeiro: é mais rápido para todos.`,
  },
  support: {
    title: "Suporte",
    summary: "Dúvidas sobre um pagamento, sua conta ou o software? Respondemos no seu idioma.",
    body: `Respondemos a toda mensagem em até um dia útil, geralmente bem antes, em qualquer um dos sete idiomas da loja.

## Antes de escrever
- Dúvida sobre um pagamento: tenha o número do pedido em mãos. Ele está no recibo e no histórico do saldo.
- Não consegue entrar: clique em “Esqueceu a senha?” na página de login. Se perdeu o celular com seus códigos de verificação em duas etapas, entre com um dos seus códigos de recuperação.
- O software não abre: veja primeiro o status na página do jogo. Se estiver “Em atualização”, uma nova versão já está a caminho.

## O que informar
- O e-mail da sua conta. Nunca envie sua senha ou códigos: nós nunca vamos pedi-los.
- O jogo e o que você estava fazendo quando o problema apareceu.
- Uma captura de tela, se ajudar.

Nossos [termos de serviço](/terms), a [política de privacidade](/privacy) e a [política de reembolso](/refunds) também respondem a muitas perguntas.`,
  },
};

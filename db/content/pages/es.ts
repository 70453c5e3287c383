// Las páginas de la tienda por defecto en español (docs/product/routes.md#legal-and-support-pages).
import type { SitePagesSeed } from "../types.ts";

export const es: SitePagesSeed = {
  terms: {
    title: "Términos del servicio",
    summary: "Las reglas para comprar y usar suscripciones en NOVA.",
    body: `Estos términos se aplican a todas las personas que crean una cuenta en NOVA o compran aquí una suscripción. Al hacerlo, los aceptas. Si no estás de acuerdo, por favor no uses la tienda.

## Tu cuenta
- Debes tener al menos 18 años o contar con el permiso de tu madre, padre o tutor.
- No compartas tu contraseña y activa la verificación en dos pasos en la configuración. Eres responsable de lo que ocurra en tu cuenta.
- Una persona, una cuenta. Las cuentas no se pueden vender ni compartir.

## Suscripciones
- Una suscripción te da acceso al software de un juego durante los días que compraste. El tiempo empieza a contar cuando pagas; los días que añades a una suscripción activa la amplían.
- Puedes congelar una suscripción hasta 30 días. Después de descongelarla, podrás volver a congelarla 7 días más tarde.
- El software funciona en un ordenador a la vez.
- Si el software de un juego no está disponible durante más de 24 horas por una actualización o un mantenimiento, añadimos el tiempo perdido a todas las suscripciones activas de ese juego.

## Pago y saldo
- El precio se muestra antes de pagar. Puedes pagar con PayPal o con tu saldo.
- El dinero de tu saldo solo se puede gastar en NOVA. No es un depósito bancario y no genera intereses.
- Los reembolsos siguen nuestra [política de reembolsos](/refunds).

## Uso justo
- Usar el software puede ir en contra de las normas de un juego o de un servidor. Consulta esas normas antes de jugar: las consecuencias de incumplirlas son responsabilidad tuya.
- No revendas, copies, descompiles ni compartas el software ni tu acceso a él.
- Podemos suspender una cuenta que abuse de la tienda, por ejemplo, una que abra una disputa por una compra que ya ha usado.

## Responsabilidad
El software se ofrece tal cual. Hacemos todo lo posible para que funcione tras cada actualización del juego, pero no podemos prometer que siempre sea así. Nuestra responsabilidad se limita a lo que pagaste por la suscripción en cuestión.

## Cambios
Podemos cambiar estos términos. Te avisaremos por correo al menos 14 días antes de cualquier cambio que te afecte; una suscripción ya comprada mantiene las condiciones con las que se compró.

## Contacto
Preguntas sobre estos términos: {support_email}, o visita la [página de soporte](/support).`,
  },
  privacy: {
    title: "Política de privacidad",
    summary: "Qué datos guardamos sobre ti, para qué, durante cuánto tiempo y cómo obtenerlos o borrarlos.",
    body: `Esta política explica qué guardamos sobre ti, para qué lo necesitamos y cuánto tiempo lo conservamos.

## Qué guardamos
- Tu cuenta: dirección de correo, nombre de usuario opcional, tu contraseña como hash irreversible, tu idioma y tus preferencias de correo.
- Tus compras: suscripciones, saldo, cada transacción y las referencias de pago que nos da PayPal. Nunca vemos los datos de tu tarjeta.
- Datos de seguridad: la dirección IP y el navegador de cada sesión, y un identificador de visitante aleatorio, para protegerte del robo de cuentas y evitar abusos del programa de referidos.
- Mensajes: las notificaciones y los correos que te enviamos.

## Para qué lo necesitamos
Para gestionar tu cuenta y tus suscripciones, procesar pagos y reembolsos, proteger las cuentas y cumplir nuestras obligaciones legales, como conservar el registro de los pagos. Solo te enviamos novedades y ofertas si lo permites en la configuración y has confirmado tu dirección.

## Quién más lo ve
- PayPal, para procesar tus pagos.
- Nuestro proveedor de correo, para entregar nuestros mensajes.
No vendemos tus datos ni los compartimos con fines publicitarios.

## Cookies
Solo las cookies que la tienda necesita para funcionar: tu sesión (access_token), tu idioma (locale), un identificador de visitante (t), el último juego que abriste (game) y el código del amigo que te invitó (referrer). Ninguna cookie publicitaria ni de seguimiento.

## Cuánto tiempo lo guardamos
Los datos de la cuenta, mientras exista. Los registros de pago, el tiempo que exija la ley, incluso después de que borres la cuenta. Las sesiones terminadas se eliminan a la semana y el texto de los correos enviados, a la hora.

## Tus derechos
- Descargar en un archivo todo lo que guardamos sobre ti: Configuración → «Descargar mis datos».
- Corregir tu dirección de correo en la configuración.
- Eliminar tu cuenta: Configuración → «Eliminar la cuenta». Tus datos personales se borran; los registros de pago se conservan, sin tu nombre ni tu dirección.
- Preguntarnos cualquier cosa sobre tus datos: {support_email}.`,
  },
  refunds: {
    title: "Política de reembolsos",
    summary: "Cuándo devolvemos el dinero, cómo pedirlo y qué pasa con tus días.",
    body: `Solo deberías pagar por el tiempo que puedes usar. Aquí te explicamos cuándo y cómo devolvemos el dinero.

## Cuándo recibes un reembolso
- En las 48 horas siguientes a una compra, si todavía no has iniciado el software con esa suscripción.
- Si el software no funciona en un ordenador que cumple los requisitos y nuestro soporte no ha podido solucionarlo en 3 días.
- Si se te cobró dos veces el mismo pedido.
El dinero que no hayas gastado de tu saldo se puede devolver a la cuenta de PayPal de la que vino, en los 30 días siguientes a la recarga.

## Cuándo añadimos días en su lugar
Si el software de un juego no está disponible durante más de 24 horas (estado «Detectado» o «En mantenimiento» en su página), añadimos el tiempo perdido a todas las suscripciones activas de ese juego. No hace falta que lo pidas.

## Cómo pedirlo
Escribe a {support_email} o visita la [página de soporte](/support). Indica el correo de tu cuenta y el número de pedido que aparece en tu recibo o en el historial del saldo. Respondemos en un día hábil.

## Qué pasa después de un reembolso
- El dinero vuelve por donde vino: a tu cuenta de PayPal o a tu saldo.
- Se descuentan de la suscripción los días comprados en proporción al reembolso. El tiempo que ya usaste nunca se quita.
- Una recarga reembolsada se descuenta primero del saldo; si ya lo gastaste, se anula lo que pagaste con ella.

## Contracargos
Si disputas un pago con PayPal o con tu banco en lugar de escribirnos, la cuenta queda suspendida hasta que se resuelva la disputa. Por favor, habla primero con nosotros: es más rápido para todos.`,
  },
  support: {
    title: "Soporte",
    summary: "¿Dudas sobre un pago, tu cuenta o el software? Te respondemos en tu idioma.",
    body: `Respondemos a cada mensaje en un día hábil, normalmente mucho antes, en cualquiera de los siete idiomas de la tienda.

## Antes de escribir
- Una duda sobre un pago: ten a mano el número de pedido. Está en tu recibo y en el historial del saldo.
- No puedes iniciar sesión: pulsa «¿Has olvidado tu contraseña?» en la página de inicio de sesión. Si perdiste el móvil con tus códigos de verificación en dos pasos, entra con uno de tus códigos de recuperación.
- El software no arranca: mira primero el estado en la página del juego. Si dice «Actualizándose», ya hay una nueva versión en camino.

## Qué incluir
- La dirección de correo de tu cuenta. Nunca envíes tu contraseña ni tus códigos: jamás te los pediremos.
- El juego y qué estabas haciendo cuando apareció el problema.
- Una captura de pantalla, si ayuda.

Nuestros [términos del servicio](/terms), la [política de privacidad](/privacy) y la [política de reembolsos](/refunds) también responden a muchas preguntas.`,
  },
};

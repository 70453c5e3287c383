// The payment providers' marks at checkout (docs/product/money.md#choosing-a-provider): simple
// drawings of our own, not the providers' artwork — a "P" on PayPal's blue, a ₿ coin on BTCPay's green.
export function ProviderLogo({ id }: { id: string }) {
  if (id === "btcpay") {
    return (
      <svg className="provider-logo" width="20" height="20" viewBox="0 0 20 20" aria-hidden="true" focusable="false">
        <circle cx="10" cy="10" r="9.5" fill="#51b13e" />
        <path
          d="M7.5 5h3.4c1.6 0 2.6.8 2.6 2.1 0 .9-.5 1.5-1.2 1.8 1 .2 1.7 1 1.7 2.1 0 1.5-1.1 2.5-2.9 2.5H7.5zm1.7 1.5v2.2h1.5c.8 0 1.2-.4 1.2-1.1s-.4-1.1-1.2-1.1zm0 3.6v2.4h1.7c.9 0 1.4-.4 1.4-1.2s-.5-1.2-1.4-1.2zM9 3.5h1.1v1.6H9zm0 11.4h1.1v1.6H9z"
          fill="#fff"
        />
      </svg>
    );
  }
  return (
    <svg className="provider-logo" width="20" height="20" viewBox="0 0 20 20" aria-hidden="true" focusable="false">
      <rect width="20" height="20" rx="4" fill="#003087" />
      <path d="M6.5 15.5 8.2 4.5h4.1c2.2 0 3.4 1.1 3.1 3-.3 2-1.8 3.1-4 3.1H9.6l-.8 4.9zm3.4-6.6h1.3c1 0 1.7-.5 1.8-1.4.1-.8-.4-1.2-1.3-1.2h-1.3z" fill="#fff" />
    </svg>
  );
}

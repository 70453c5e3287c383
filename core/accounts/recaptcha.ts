// reCAPTCHA v2/v3 server-side verification (siteverify). Off when no secret is set.
export type Recaptcha = { enabled: boolean; verify(token: string | undefined, ip: string): Promise<boolean> };

export function createRecaptcha(options: { secret?: string; verifyUrl: string; timeoutMs?: number }): Recaptcha {
  const { secret, verifyUrl, timeoutMs = 5000 } = options;
  if (!secret) return { enabled: false, verify: async () => true };
  return {
    enabled: true,
    async verify(token, ip) {
      if (!token) return false;
      try {
        const response = await fetch(verifyUrl, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ secret, response: token, remoteip: ip }),
          signal: AbortSignal.timeout(timeoutMs),
        });
        if (!response.ok) return false;
        const body = (await response.json()) as { success?: unknown; score?: unknown };
        // v3 answers with a score; 0.5 is Google's suggested threshold.
        return body.success === true && (typeof body.score !== "number" || body.score >= 0.5);
      } catch {
        return false;
      }
    },
  };
}

/**
 * The game client's calls (docs/product/delivery.md#client-api): no session, no cookies, no origin
 * check and no write limit — their own limits per key, token and address instead.
 */
export function isClientPath(path: string): boolean {
  return path.startsWith("/v2/client/");
}

/** Paths that belong to the JSON API rather than to pages. */
export function isApiPath(path: string): boolean {
  return path.startsWith("/v2/") || /^\/auth\/(reset|validateResetCode|setPasswordReset)$/.test(path);
}

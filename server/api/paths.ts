/** Paths that belong to the JSON API rather than to pages. */
export function isApiPath(path: string): boolean {
  return path.startsWith("/v2/") || /^\/auth\/(reset|validateResetCode|setPasswordReset)$/.test(path);
}

const KEY = "memsvc.token";

/**
 * The bearer token for this tab. Kept in `sessionStorage` only: it dies with the tab, is never
 * written to a cookie (so no request carries it implicitly) and never appears in a URL.
 *
 * @example
 * tokenStore.save("s3cret"); tokenStore.read(); // "s3cret"
 */
export const tokenStore = {
  read(): string | null {
    return sessionStorage.getItem(KEY);
  },
  save(token: string): void {
    sessionStorage.setItem(KEY, token);
  },
  clear(): void {
    sessionStorage.removeItem(KEY);
  },
  /**
   * Why `token` cannot go in an `Authorization` header, if it cannot. A header carries tabs and
   * U+0020–U+00FF (DEL aside); fetch throws on anything else (a zero-width space or a curly
   * quote copied along with the token), which would otherwise open the page on a bare TypeError
   * with that token kept.
   */
  problem(token: string): string | undefined {
    const stray = /[^\t\u0020-\u007e\u0080-\u00ff]/u.exec(token);
    if (stray === null) return undefined;
    const code = (stray[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0");
    return `This token has a character a header cannot carry (U+${code}, character ${stray.index + 1}): was something copied with it?`;
  },
};

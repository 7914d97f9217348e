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
};

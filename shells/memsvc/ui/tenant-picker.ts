import { h, byId } from "./dom.js";
import { tokenStore } from "./token-store.js";

const KEY = "memsvc.tenant";
/** The header naming the tenant the operator's key acts on (issue 23). */
const TENANT_HEADER = "X-Memsvc-Tenant";

/**
 * The tenant the operator picked for this tab (`sessionStorage`, like the token); none: the
 * service's default tenant. A tenant key never sees the picker: its tenant is its key's.
 *
 * @example
 * fetch("/v1/stats", { headers: { ...tenantHeaders() } });
 */
export function tenantHeaders(): Record<string, string> {
  const tenant = sessionStorage.getItem(KEY);
  return tenant === null ? {} : { [TENANT_HEADER]: tenant };
}

/** Forgets the picked tenant (with the token: another key may be another operator's or none). */
export function forgetTenant(): void {
  sessionStorage.removeItem(KEY);
}

/**
 * Shows the tenant picker in the page's header when the key is the operator's (`GET /v1/tenants`
 * answers; a tenant key gets 403 and sees no picker): the default tenant, every tenant holding
 * memories with its count, and the picked one. Picking one sends `X-Memsvc-Tenant` on every later
 * API call of the tab and calls `onChange` to reload what is shown.
 *
 * @example
 * void showTenantPicker(reload);
 */
export async function showTenantPicker(onChange: () => void): Promise<void> {
  const old = document.getElementById("tenant-picker");
  const headers: Record<string, string> = { Accept: "application/json" };
  const token = tokenStore.read();
  // A tenant key (`msk_…`, docs/tenants.md) is refused the list: do not ask, and log no 403.
  if (token?.startsWith("msk_") === true) return void old?.remove();
  if (token !== null) headers["Authorization"] = `Bearer ${token}`;
  const res = await fetch("/v1/tenants", { headers, credentials: "omit", cache: "no-store" });
  if (!res.ok) {
    old?.remove();
    return;
  }
  const { tenants } = (await res.json()) as { tenants: { tenant: string; memories: number }[] };
  const picked = sessionStorage.getItem(KEY) ?? "default";
  const counts = new Map(tenants.map((t) => [t.tenant, t.memories]));
  const names = [...new Set(["default", picked, ...counts.keys()])].sort();
  const select = h(
    "select",
    { id: "tenant-picker", "aria-label": "Tenant", title: "Tenant (operator)" },
    ...names.map((name) =>
      h("option", { value: name, selected: name === picked }, `${name} (${counts.get(name) ?? 0})`),
    ),
  );
  select.addEventListener("change", () => {
    if (select.value === "default") sessionStorage.removeItem(KEY);
    else sessionStorage.setItem(KEY, select.value);
    onChange();
  });
  if (old === null) byId("sign-out").before(select);
  else old.replaceWith(select);
}

import { byId } from "./dom.js";

/**
 * Asks for confirmation in the page's modal `<dialog>` (focus moves into it, Escape cancels,
 * Cancel has the initial focus so Enter alone never forgets anything). Resolves true only when
 * the danger button was pressed.
 *
 * @example
 * if (await confirmForget("Forget 3 memories?")) await forgetThem();
 */
export function confirmForget(text: string, okLabel = "Forget"): Promise<boolean> {
  const dialog = byId<HTMLDialogElement>("confirm");
  byId("confirm-text").textContent = text;
  byId("confirm-ok").textContent = okLabel;
  dialog.returnValue = "";
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "ok"), { once: true });
    dialog.showModal();
  });
}

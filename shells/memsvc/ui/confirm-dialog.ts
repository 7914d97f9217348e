import { byId } from "./dom.js";

/**
 * Asks for confirmation in the page's modal `<dialog>` (focus moves into it, Escape cancels,
 * Cancel has the initial focus so Enter alone never forgets anything). Resolves true only when
 * the danger button was pressed. Stored text in `text` comes as a `<bdi>` node, not spliced into
 * the string, so that its bidi controls cannot reorder the question.
 *
 * @example
 * if (await confirmForget("Forget 3 memories?")) await forgetThem();
 */
export function confirmForget(
  text: string | readonly (string | Node)[],
  okLabel = "Forget",
): Promise<boolean> {
  const dialog = byId<HTMLDialogElement>("confirm");
  byId("confirm-text").replaceChildren(...(typeof text === "string" ? [text] : text));
  byId("confirm-ok").textContent = okLabel;
  dialog.returnValue = "";
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "ok"), { once: true });
    dialog.showModal();
  });
}

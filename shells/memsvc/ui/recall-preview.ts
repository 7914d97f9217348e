import { api } from "./api.js";
import { byId } from "./dom.js";
import { renderRecallExplain } from "./recall-explain.js";

/**
 * The recall preview: sends the message, project and budget to `POST /v1/recall` (with
 * `explain`) and shows the exact context it answers, with how many memories it packed and the
 * tokens used of the budget, then why: each memory's score and factors, and what the relevance
 * floor and the budget left out.
 *
 * @example
 * wireRecallPreview(byId("recall"), showError);
 */
export function wireRecallPreview(form: HTMLFormElement, fail: (error: unknown) => void): void {
  const summary = byId("recall-summary");
  const context = byId("recall-context");
  const explain = byId("recall-explain");
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const budget = Number(data.get("budget"));
    api
      .recall(String(data.get("message") ?? ""), budget, String(data.get("project") ?? ""))
      .then((answer) => {
        summary.textContent =
          `${answer.memory_count} ${answer.memory_count === 1 ? "memory" : "memories"}, ` +
          `${answer.tokens_used} of ${budget} tokens used`;
        context.textContent = answer.context === "" ? "(empty context)" : answer.context;
        context.hidden = false;
        renderRecallExplain(explain, answer);
      }, fail);
  });
}

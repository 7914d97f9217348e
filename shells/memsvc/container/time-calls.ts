import type { ServiceMetrics } from "../../common/service-metrics.js";

/**
 * The same object, with the duration and outcome of every call to one of its promise-returning
 * methods recorded as `<prefix>_dependency_duration_seconds{dependency, operation, outcome}`.
 * Methods run with the real object as `this` (private fields keep working); properties and
 * synchronous methods pass through untouched.
 *
 * @example
 * const store = timeCalls(new ChromaVectorStore({ url }), "vector_store", metrics);
 */
export function timeCalls<T extends object>(
  target: T,
  dependency: "vector_store" | "embedder",
  metrics: ServiceMetrics | undefined,
): T {
  if (metrics === undefined) return target;
  return new Proxy(target, {
    get(object, property) {
      const value: unknown = Reflect.get(object, property, object);
      if (typeof value !== "function" || typeof property !== "string") return value;
      return (...args: unknown[]) => {
        const started = performance.now();
        const result: unknown = (value as (...a: unknown[]) => unknown).apply(object, args);
        if (!(result instanceof Promise)) return result;
        const observe = (outcome: "ok" | "error"): void =>
          metrics.observeDependency({
            dependency,
            operation: property,
            outcome,
            seconds: (performance.now() - started) / 1000,
          });
        return result.then(
          (answer: unknown) => {
            observe("ok");
            return answer;
          },
          (error: unknown) => {
            observe("error");
            throw error;
          },
        );
      };
    },
  });
}

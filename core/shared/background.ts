// Work that happens after an answer was sent (e.g. the password-reset mail). Tracked so that a
// graceful shutdown, or a test, can wait for it instead of cutting it off.
export type Background = { run(task: () => Promise<unknown>): Promise<void>; drain(): Promise<void> };

export function createBackground(onError: (err: unknown) => void): Background {
  const pending = new Set<Promise<void>>();
  return {
    run(task) {
      const promise = task()
        .then(() => undefined)
        .catch(onError)
        .finally(() => pending.delete(promise));
      pending.add(promise);
      return promise;
    },
    async drain() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
  };
}

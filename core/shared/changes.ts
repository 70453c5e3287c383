// What a store held in memory (the catalogue, the site pages, the route rules) tells those that
// keep something made from it, such as the page cache: `version` grows with every change, and
// `onChange` listeners are called at once.
export type Changes = {
  /** Increases whenever the data changed. */
  readonly version: number;
  /** Calls `listener` after every change; the function returned stops that. */
  onChange(listener: () => void): () => void;
  /** Says that the data changed: the version grows and every listener is called. */
  changed(): void;
};

export function createChanges(): Changes {
  let version = 0;
  const listeners = new Set<() => void>();
  return {
    get version() {
      return version;
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    changed() {
      version++;
      for (const listener of listeners) listener();
    },
  };
}

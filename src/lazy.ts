/**
 * A module loaded on first use, by `import()` (which keeps it out of the start of the runs that do
 * not need it), and the same promise at every later use. A process can make many runs (the
 * library's `main`, the tests: some 9,000 in make test), and the module loader resolves every
 * `import()` call again, the module loaded or not (under a loader with hooks, such as the tests',
 * a round trip to its thread: ~0.3 ms a call). A load that failed is tried again next time.
 */
export function lazy<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () =>
    (loaded ??= load().catch((err: unknown) => {
      loaded = undefined;
      throw err;
    }));
}

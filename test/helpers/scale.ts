// How big the heavy tests run. `make test` (the fast loop) runs them small, so a regression still
// shows there; `make stress` sets CURSORLOG_STRESS=1 and runs them at full size (scripts/run-tests.mjs).
// FUZZ_RUNS overrides every fuzz count either way (a by-hand run), FUZZ_SEED the seed.

/** True under `make stress` (CURSORLOG_STRESS=1). */
export const STRESS = process.env.CURSORLOG_STRESS === "1";

/** `small` in `make test`, `big` in `make stress`. */
export function scaled<T>(small: T, big: T): T {
  return STRESS ? big : small;
}

/** A fast-check run count: FUZZ_RUNS if set, else `small` in `make test` and `big` in `make stress`. */
export function fuzzRuns(small: number, big: number): number {
  const forced = process.env.FUZZ_RUNS;
  return forced !== undefined && forced !== "" ? Number(forced) : scaled(small, big);
}

/** The fast-check seed: FUZZ_SEED, else 42, so a failure seen in CI replays exactly. */
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 42);

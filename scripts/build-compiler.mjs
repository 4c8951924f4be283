// The V8 compiler flags of `npm run build` (scripts/build.mjs). Plain JavaScript, so that it runs before any loader.

/**
 * The most bytecode TurboFan inlines into one function it optimizes, all inlined functions together (V8's own: 920).
 * A cold build runs a great deal of code, each part for a few seconds, in four threads that each compile their own:
 * about 1,400 optimizing compiles in a cold build of ten thousand versions, about 15% of its CPU in TurboFan (`perf`).
 * Inlining less makes each compile cheaper and the code it makes hardly slower: in sixteen alternating pairs of cold
 * builds of ten thousand versions with their output in memory, builds spent 17.1 s of CPU against 17.8 s (14 pairs in
 * its favour) and took 10.1 s against 10.5 s (means).
 */
export const INLINED_BYTECODE_CUMULATIVE = 300;

/** The compiler flags every build is given. */
export const COMPILER_FLAGS = [`--max-inlined-bytecode-size-cumulative=${INLINED_BYTECODE_CUMULATIVE}`];

/**
 * True in development and test builds, false in the production build (esbuild's `define`):
 * code under `if (TEST_SEAMS)` and what only it imports is not in the bundle that ships.
 */
declare const TEST_SEAMS: boolean;

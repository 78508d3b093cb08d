// The build's constants: esbuild's `define` (esbuild.mjs) gives each a value per build, so code
// under a branch that is false in a build is not in that build's bundle.

/**
 * True in development and test builds, false in the production build: code under
 * `if (TEST_SEAMS)` and what only it imports is not in the bundle that ships.
 */
declare const TEST_SEAMS: boolean;

/**
 * True in the browser build (`dist/web.js`, VS Code for the Web's web-worker extension host),
 * false in the Node one: what needs Node (a home folder, an MCP server process) is not used there.
 */
declare const WEB: boolean;

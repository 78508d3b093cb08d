// The environments' commands, loaded together by import() when the first of them runs: Switch
// offers Manage, Manage offers Add, Rename and Remove, and each asks for a key, so they share
// nearly all their code, and one chunk costs less than five that import each other.
export { addEnvironmentFlow } from './flows';
export { replaceKey, signOutAll } from './keys';
export { manage } from './manage';
export { remove, rename } from './edits';
export { switchEnvironment } from './switch';

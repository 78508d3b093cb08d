// The flows that write (Create, Edit, Rename, Describe, Change Status of one or many), loaded
// together by import() when the first of them runs: they share the write path (writes.ts), the
// input checks and the status choices, and one chunk costs less than several importing each other.
export { createEngagement } from './create';
export { editEngagement } from './edit';
export { changeStatusOfMany } from './statusChange';

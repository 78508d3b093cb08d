// What a feature gives back to `activate`: its command table and the objects it built.
import type { CommandId } from './constants';

/**
 * What a feature gives back to `activate`: its commands, and its parts (the objects it built)
 * for the composition root to hand to another feature's ports or, in test builds only, to the
 * test seams (`src/testing/`).
 */
export interface Feature<Parts = unknown> {
  /** Its command table: only ids of `Commands`; together the features handle every one. */
  commands: Partial<Record<CommandId, CommandHandler>>;
  parts: Parts;
}

export type CommandHandler = (...args: unknown[]) => unknown;

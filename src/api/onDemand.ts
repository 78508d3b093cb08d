// What the client loads with its first use rather than at activation (nothing is read then):
// ky with the first request, the readers of a failure (error bodies, connection codes) with
// the first failure.
import type * as KyModule from 'ky';
import type * as ErrorBodiesModule from './errorBodies';
import type * as NetworkModule from './network';

type Ky = typeof KyModule;
let kyLoaded: Ky | undefined;
let kyLoading: Promise<Ky> | undefined;

export function loadKy(): Promise<Ky> {
  return (kyLoading ??= import('ky').then((module) => (kyLoaded = module)));
}

/** `error instanceof` one of ky's error classes (false while ky is not loaded: it threw nothing yet). */
export function isKyError<K extends 'HTTPError' | 'TimeoutError'>(
  error: unknown,
  kind: K,
): error is InstanceType<Ky[K]> {
  return kyLoaded !== undefined && error instanceof kyLoaded[kind];
}

let failureReaders: Promise<[typeof ErrorBodiesModule, typeof NetworkModule]> | undefined;

/** The readers of a failure: loaded with the first failure, not at activation. */
export function loadFailureReaders(): Promise<[typeof ErrorBodiesModule, typeof NetworkModule]> {
  return (failureReaders ??= Promise.all([import('./errorBodies'), import('./network')]));
}

export function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || (error as { code?: string }).code === 'ABORT_ERR');
}

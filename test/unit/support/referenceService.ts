// The reference service on a loopback port for a unit suite: started once before the suite,
// reset before each test, closed after; and clients of it with the admin key.
import { ServiceApi } from '../../../src/api/service';
import { startService, type RunningService, type ServiceOptions } from '../../service/server';

type ClientOptions = Partial<ConstructorParameters<typeof ServiceApi>[0]>;

export interface ReferenceServiceFixture {
  /** The running service (after the suite's `before`). */
  readonly service: RunningService;
  /** A client of it: the admin key and a 5 s timeout, unless `options` say otherwise. */
  api(options?: ClientOptions): ServiceApi;
}

/** Registers the hooks in the calling `describe`; call it before the suite's own hooks. */
export function useReferenceService(start: ServiceOptions = {}): ReferenceServiceFixture {
  let running: RunningService | undefined;
  before(async () => {
    running = await startService({ port: 0, ...start });
  });
  after(async () => {
    await running?.close();
  });
  beforeEach(() => {
    running?.reset();
  });
  const fixture: ReferenceServiceFixture = {
    get service(): RunningService {
      if (!running) throw new Error("The reference service starts in the suite's before hook.");
      return running;
    },
    api: (options = {}) =>
      new ServiceApi({
        baseUrl: fixture.service.baseUrl,
        getKey: () => fixture.service.keys.admin,
        timeoutMs: 5000,
        ...options,
      }),
  };
  return fixture;
}

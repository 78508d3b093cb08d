// The reference service on a loopback port for a unit suite: started once before the suite,
// reset before each test, closed after; and clients of it with the admin key.
import { ServiceApi } from '../../../src/api/service';
import { startService, type RunningService, type ServiceOptions } from '../../service/server';

type ClientOptions = Partial<ConstructorParameters<typeof ServiceApi>[0]>;

export interface ReferenceServiceOptions extends Omit<ServiceOptions, 'now'> {
  /** Where the service's clock stands at the start of each test; without it, the real time. */
  clock?: Date;
}

export interface ReferenceServiceFixture {
  /** The running service (after the suite's `before`). */
  readonly service: RunningService;
  /** The service's clock: set it to move the service's time until the next test. */
  clock: Date;
  /** A client of it: the admin key and a 5 s timeout, unless `options` say otherwise. */
  api(options?: ClientOptions): ServiceApi;
}

/** Registers the hooks in the calling `describe`; call it before the suite's own hooks. */
export function useReferenceService(options: ReferenceServiceOptions = {}): ReferenceServiceFixture {
  const { clock: startClock, ...start } = options;
  let running: RunningService | undefined;
  let clock = startClock;
  before(async () => {
    running = await startService({ port: 0, ...start, now: () => clock ?? new Date() });
  });
  after(async () => {
    await running?.close();
  });
  beforeEach(() => {
    clock = startClock;
    running?.reset();
  });
  const fixture: ReferenceServiceFixture = {
    get service(): RunningService {
      if (!running) throw new Error("The reference service starts in the suite's before hook.");
      return running;
    },
    get clock(): Date {
      return clock ?? new Date();
    },
    set clock(date: Date) {
      clock = date;
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

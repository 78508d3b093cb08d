// The reference service on a loopback port for a unit suite: started once before the suite,
// reset before each test, closed after; and clients of it with the admin key.
import { ServiceApi } from '../../../src/api/service';
import { makeCertificates, type TestCertificates } from '../../../scripts/vscode/tls.mjs';
import { startService, type RunningService, type ServiceOptions } from '../../service/server';

type ClientOptions = Partial<ConstructorParameters<typeof ServiceApi>[0]>;

export interface ReferenceServiceOptions extends Omit<ServiceOptions, 'now' | 'tls'> {
  /** Where the service's clock stands at the start of each test; without it, the real time. */
  clock?: Date;
  /** Served over HTTPS with the good certificate of a private CA made for the suite (`certificates`). */
  https?: boolean;
}

export interface ReferenceServiceFixture {
  /**
   * The running service. It may be taken at the top of the suite: what it is asked reaches the
   * service the suite's `before` started (and throws before then).
   */
  readonly service: RunningService;
  /** With `https`: the certificates (after the suite's `before`); the CA is `certificates.ca`. */
  readonly certificates: TestCertificates;
  /** The service's clock: set it to move the service's time until the next test. */
  clock: Date;
  /** A client of it: the admin key and a 5 s timeout, unless `options` say otherwise. */
  api(options?: ClientOptions): ServiceApi;
}

/** Registers the hooks in the calling `describe`; call it before the suite's own hooks. */
export function useReferenceService(options: ReferenceServiceOptions = {}): ReferenceServiceFixture {
  const { clock: startClock, https, ...start } = options;
  let running: RunningService | undefined;
  let certificates: TestCertificates | undefined;
  let clock = startClock;
  before(async () => {
    if (https) certificates = makeCertificates();
    const tls = certificates && { key: certificates.served.good.key, cert: certificates.served.good.cert };
    running = await startService({ port: 0, ...start, tls, now: () => clock ?? new Date() });
  });
  after(async () => {
    await running?.close();
  });
  beforeEach(() => {
    clock = startClock;
    running?.reset();
  });
  const started = (): RunningService => {
    if (!running) throw new Error("The reference service starts in the suite's before hook.");
    return running;
  };
  const service = new Proxy({} as RunningService, {
    get: (_, name): unknown => {
      const value: unknown = Reflect.get(started(), name);
      return typeof value === 'function' ? (value.bind(started()) as unknown) : value;
    },
  });
  const fixture: ReferenceServiceFixture = {
    service,
    get certificates(): TestCertificates {
      if (!certificates) throw new Error('The certificates are made in the before hook of a suite with `https`.');
      return certificates;
    },
    get clock(): Date {
      return clock ?? new Date();
    },
    set clock(date: Date) {
      clock = date;
    },
    api: (options = {}) =>
      new ServiceApi({
        baseUrl: service.baseUrl,
        getKey: () => service.keys.admin,
        timeoutMs: 5000,
        ...options,
      }),
  };
  return fixture;
}

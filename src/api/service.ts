import { ApiClient, type ClientOptions } from './client';
import { EngagementsApi } from './engagements';
import { UsageApi } from './usage';

/** The whole contract behind one object: `api.engagements.*` and `api.usage.*`. */
export class ServiceApi {
  readonly client: ApiClient;
  readonly engagements: EngagementsApi;
  readonly usage: UsageApi;

  constructor(options: ClientOptions) {
    this.client = new ApiClient(options);
    this.engagements = new EngagementsApi(this.client, options.listSizes);
    this.usage = new UsageApi(this.client);
  }
}

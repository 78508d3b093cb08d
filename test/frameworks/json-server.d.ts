// The part of json-server 0.17 (CommonJS, no types of its own) that its README's server uses.
declare module 'json-server' {
  import type { Server } from 'node:http';

  type Handler = (...args: never[]) => void;
  interface App {
    use(handler: Handler): void;
    use(path: string, handler: Handler): void;
    listen(port: number, host: string, ready: () => void): Server;
  }
  interface Router extends Handler {
    db: { get(collection: string): { value(): unknown } };
  }
  const jsonServer: {
    create(): App;
    router(db: object): Router;
    defaults(options?: { logger?: boolean }): Handler;
  };
  export default jsonServer;
}

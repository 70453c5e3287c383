// A TCP proxy in front of a server (PostgreSQL, Redis) that a test can freeze: while frozen, no byte
// passes in either direction on any connection, as when the server (or the network to it) hangs. It
// can also freeze itself right after forwarding a command (a COMMIT, a SUBSCRIBE), so that the
// command lands while its answer does not come until thawed, and drop every connection at once.
import { createServer, connect, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";

export type FreezeProxy = {
  /** The server's URL through the proxy. */
  url: string;
  freeze(): void;
  /** Freezes once a chunk a client sends matching `command` (a COMMIT) has been forwarded to the server. */
  freezeAfter(command: RegExp): void;
  /** Whether a `freezeAfter` command triggered a freeze. */
  readonly frozenByCommand: boolean;
  thaw(): void;
  /** Closes every connection through the proxy at once, as a server restart would; new ones are taken. */
  drop(): void;
  stop(): Promise<void>;
};

export async function startFreezeProxy(serverUrl: string): Promise<FreezeProxy> {
  const upstream = new URL(serverUrl);
  const host = upstream.hostname;
  const port = Number(upstream.port || 5432);
  let frozen = false;
  let armed: RegExp | undefined;
  let frozenByCommand = false;
  const held: (() => void)[] = [];
  const sockets = new Set<Socket>();

  /** Forwards a chunk now, or when thawed. */
  const pass = (to: Socket, chunk: Buffer) => {
    const send = () => {
      if (!to.destroyed) to.write(chunk);
    };
    if (frozen) held.push(send);
    else send();
  };

  const server: Server = createServer((client) => {
    const server = connect(port, host);
    for (const s of [client, server]) {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
      s.on("error", () => {});
    }
    client.on("data", (chunk: Buffer) => {
      pass(server, chunk);
      if (armed && !frozen && armed.test(chunk.toString("latin1"))) {
        armed = undefined;
        frozenByCommand = true;
        frozen = true;
      }
    });
    server.on("data", (chunk: Buffer) => pass(client, chunk));
    const end = (other: Socket) => () => {
      const close = () => other.end();
      if (frozen) held.push(close);
      else close();
    };
    client.on("end", end(server));
    server.on("end", end(client));
    client.on("close", () => (frozen ? held.push(() => server.destroy()) : server.destroy()));
    server.on("close", () => (frozen ? held.push(() => client.destroy()) : client.destroy()));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const through = new URL(serverUrl);
  through.hostname = "127.0.0.1";
  through.port = String((server.address() as AddressInfo).port);

  return {
    url: through.toString(),
    freeze: () => void (frozen = true),
    freezeAfter: (command) => void (armed = command),
    get frozenByCommand() {
      return frozenByCommand;
    },
    thaw() {
      frozen = false;
      for (const send of held.splice(0)) send();
    },
    drop() {
      for (const s of sockets) s.destroy();
    },
    async stop() {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

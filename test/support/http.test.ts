/**
 * The tests' HTTP helper holds no idle connection. With one kept alive, a server that closes it after its
 * keep-alive timeout just as the client picks it for the next request (a loaded machine delays the
 * client's own idle timer; CI saw it between two end-to-end cases) fails that request with ECONNRESET.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { http } from "./http";

describe("the tests' HTTP helper", () => {
  // The race made certain: a connection's second request finds it closed, as when the server's timeout
  // fires while that request is on its way.
  const server = createServer((req, res) => {
    const socket = req.socket as typeof req.socket & { answered?: boolean };
    if (socket.answered) return void socket.destroy();
    socket.answered = true;
    res.end("{}");
  });
  let url = "";
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  it("sends each request on a connection of its own", async () => {
    for (let i = 0; i < 3; i++) expect((await http("POST", url, { body: {} })).status).toBe(200);
  });
});

import { describe, expect, it } from "vitest";
import { unknownSqlsvcEnv } from "../../../../shells/sqlsvc/unknown-env.js";

describe("unknown SQLSVC_ environment variables (issue 24)", () => {
  it("warns about each one it does not read, with the name it most likely meant", () => {
    expect(
      unknownSqlsvcEnv({
        SQLSVC_MCP_PROT: "9000",
        SQLSVC_MCP_PORT: "9001",
        SQLSVC_COLOUR: "on",
        PATH: "/usr/bin",
      }),
    ).toEqual([
      "environment variable SQLSVC_COLOUR matches no setting and is ignored",
      "environment variable SQLSVC_MCP_PROT matches no setting and is ignored; did you mean SQLSVC_MCP_PORT?",
    ]);
  });

  it("says nothing about the variables it reads", () => {
    expect(
      unknownSqlsvcEnv({ SQLSVC_MCP_WORKERS: "2", SQLSVC_MCP_ALLOW_PORT_0: "1", HOME: "/root" }),
    ).toEqual([]);
  });
});

import { InMemoryApiKeyStore } from "../../../core/testing/index.js";
import { describeApiKeyStoreContract } from "../../contracts/api-key-store-contract.js";

describeApiKeyStoreContract("InMemoryApiKeyStore", () => {
  const keys = new InMemoryApiKeyStore();
  return Promise.resolve({
    keys,
    reopen: () => Promise.resolve(keys),
    cleanup: () => Promise.resolve(),
  });
});

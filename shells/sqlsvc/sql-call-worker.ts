/**
 * Entry module of the worker thread that runs large SQL tool calls under a budget
 * (`BudgetedSqlRunner`): the production toolkit behind `serveSqlCalls`.
 */
import { parentPort } from "node:worker_threads";
import { loadSqlToolkit } from "./load-sql-toolkit.js";
import { serveSqlCalls } from "./serve-sql-calls.js";

if (parentPort !== null) await serveSqlCalls(parentPort, loadSqlToolkit);

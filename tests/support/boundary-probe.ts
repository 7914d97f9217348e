// Imported by the boundary test to prove its probe sees vendor packages when they do load.
import { Hono } from "hono";

export const probe = new Hono();

// Limits of a task flow, in a module light enough for the tool definitions to import at start-up.

/** The most steps one task may have. */
export const MAX_STEPS = 100;

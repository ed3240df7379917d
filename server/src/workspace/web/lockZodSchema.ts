/**
 * The browser's twin of core/lock/lockZodSchema.ts (docs/web.md): zod only words what is wrong with a
 * lock the hand check already refused (core/lock/file.ts), and it is most of the web worker's size
 * budget. In the browser such a lock is refused all the same, with this wording instead of zod's.
 */
const UNWORDED = {
    safeParse: () => ({
        success: false as const,
        error: {
            issues: [
                {
                    path: [] as (string | number)[],
                    message:
                        "the exact place is named by the desktop extension or `sourcecheck check` (VS Code for the Web does not word it)",
                },
            ],
        },
    }),
};

export const LOCK_ZOD_SCHEMAS = { entry: UNWORDED, lock: UNWORDED };

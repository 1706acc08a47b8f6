// Help text for the agent adapters (kept apart so `--help` can show it
// without loading the MCP SDK).
export const ADAPTERS_HELP = `switchboard mcp [--agent KIND] [--name N] [--mode MODE]
  The MCP server (stdio) an agent runs: registers the agent's session (starting the hub if
  needed) and offers the switchboard_* tools.
switchboard hook session-start|prompt-submit|post-tool|stop|session-end --agent claude|codex|gemini|qwen
  A hook command: reads the agent's hook JSON on stdin; prints context or a stop decision
  only when messages are waiting. Never fails the agent (exit 0).
switchboard setup claude-code|codex|gemini|opencode|qwen [--dry-run] [--uninstall] [--agent-version X.Y.Z]
  Adds (or removes) the MCP server and hooks in that agent's user configuration, with a backup.`;

// Package procgroup starts a child in a process group of its own and ends the group: the CLI and
// the tools it starts (claude/subprocess), a command hook and what it starts
// (claude/internal/commandhook). On Unix it is a process group and signals; on Windows, where there are no
// process groups, Terminate and Kill end the process tree with taskkill.
package procgroup

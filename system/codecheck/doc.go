// Package codecheck holds checks over the whole tree's Go source that no linter of the
// project's golangci-lint set makes; each is a test that names the file and line it refuses.
package codecheck

// Command versioned is a binary with no commands of its own, for the version test.
package main

import "github.com/podiumhq/podium/libs/service"

func main() { service.Program{Name: "demo", Usage: "Usage: demo\n"}.Main() }

package service

import "runtime/debug"

// WithSettings exposes Build.withSettings to the tests.
func (b Build) WithSettings(settings []debug.BuildSetting) Build { return b.withSettings(settings) }

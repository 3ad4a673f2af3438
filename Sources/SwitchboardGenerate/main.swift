import ArgumentParser
import SwitchboardGenerateCommand

// `switchboard-generate`: the build plugin's tool, the same command as `switchboard generate`.
GenerateCommand.main()

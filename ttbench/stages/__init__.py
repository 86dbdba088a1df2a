"""One module per compiler stage. Each exposes a function from the previous stage's artifact to
`(Stage, artifact for the next stage)`; `ttbench.pipeline` chains them in `core.FRONTEND_STAGES` order."""

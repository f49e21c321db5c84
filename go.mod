module github.com/modsolver/modsolver

go 1.26.8

require (
	github.com/Masterminds/semver/v3 v3.5.0
	github.com/go-air/gini v1.0.4
	github.com/stretchr/testify v1.12.1
	go.yaml.in/yaml/v3 v3.0.6
	google.golang.org/protobuf v1.36.12
)

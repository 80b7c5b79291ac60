module jetjson/capi-go

go 1.22

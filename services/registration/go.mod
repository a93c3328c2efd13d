module github.com/podiumhq/podium/services/registration

go 1.26

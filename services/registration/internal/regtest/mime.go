package regtest

import (
	"io"
	"mime"
	"mime/quotedprintable"
	"strings"
)

type mimeDecoder struct{}

func (mimeDecoder) decode(s string) (string, error) { return new(mime.WordDecoder).DecodeHeader(s) }

func decodeQP(s string) string {
	b, err := io.ReadAll(quotedprintable.NewReader(strings.NewReader(s)))
	if err != nil {
		return s
	}
	return string(b)
}
